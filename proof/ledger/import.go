package ledger

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/clumsies/clumsies/events"
)

// Destination is the ledger an import stores into: an events.Log that
// can store messages exactly as another copy stored them
// (natsjs.Log.AppendStored).
type Destination interface {
	Source
	LastSeq(ctx context.Context) (uint64, error)
	AppendStored(ctx context.Context, evs []events.Event) error
}

// importBatch is how many messages one AppendStored pipelines.
const importBatch = 1024

// Import stores the export that open opens into dst, the ledger of
// workspaceID, in two passes over the file. The first checks everything
// and stores nothing: the export must be of workspaceID, whole (its
// trailer agrees), and its chain must hold from its header through every
// checkpoint to its trailer; it must also carry on dst's own ledger,
// whose chain is checked first: dst must be empty and the export start
// at seq 1, or dst's ledger must be the export's up to where dst ends (an
// import cut short by a crash goes on where it stopped), or end right
// before the export starts with the digest the export names. The second
// pass stores the messages dst lacks, each at its sequence with its
// bytes.
//
// A broken chain fails with a *BrokenError naming the first sequence
// where the export disagrees; a file that is no export, or is cut short,
// with an error wrapping ErrFormat. progress, if not nil, is called now
// and then with the messages stored and the last sequence of the export.
func Import(ctx context.Context, open func() (io.ReadCloser, error), workspaceID string, dst Destination, progress func(done, total uint64)) (Summary, error) {
	s := Summary{WorkspaceID: workspaceID}
	local, err := Check(ctx, dst, workspaceID, nil)
	if err != nil {
		return s, err
	}
	if local.Problem != nil {
		return s, fmt.Errorf("this workspace's own ledger: %w", &BrokenError{*local.Problem})
	}
	check, err := checkExport(open, workspaceID, local)
	s.From, s.Through, s.Events, s.Checkpoints = check.From, check.Through, check.Events, check.Checkpoints
	s.Digest, s.Problem = check.Digest, check.Problem
	if err != nil {
		return s, err
	}
	if local.Through >= s.Through {
		return s, fmt.Errorf("nothing to import: this workspace's ledger already holds seq %d, the export ends at seq %d", local.Through, s.Through)
	}
	if err := store(ctx, open, dst, local.Through, s.Through, progress); err != nil {
		return s, err
	}
	return s, nil
}

// checkExport is the first pass of Import.
func checkExport(open func() (io.ReadCloser, error), workspaceID string, local Result) (Summary, error) {
	f, err := open()
	if err != nil {
		return Summary{}, err
	}
	defer f.Close()
	r, err := NewReader(f)
	if err != nil {
		return Summary{}, err
	}
	s := Summary{WorkspaceID: r.WorkspaceID(), From: r.From()}
	if r.WorkspaceID() != workspaceID {
		return s, fmt.Errorf("the export holds the ledger of %s, this workspace is %s: import it into a workspace whose config.toml has workspace_id = %q (a clone of that workspace's repository)",
			r.WorkspaceID(), workspaceID, r.WorkspaceID())
	}
	switch {
	case r.From() == 1 && r.Prev() != events.ChainStart(workspaceID):
		return s, fmt.Errorf("%w: the export starts at seq 1 but not from the chain's start", ErrFormat)
	case local.Through+1 < r.From():
		return s, fmt.Errorf("this workspace's ledger ends at seq %d and the export starts at seq %d: import an export that covers seq %d..%d first, or a whole one",
			local.Through, r.From(), local.Through+1, r.From()-1)
	case local.Through+1 == r.From() && r.From() > 1 && local.Digest != r.Prev().String():
		return s, fmt.Errorf("the export follows another ledger: it carries on from chain digest %s at seq %d, this workspace's ledger is at %s",
			r.Prev(), r.From()-1, local.Digest)
	}
	c := ResumeChecker(workspaceID, r.From()-1, r.Prev())
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var se *events.StoredError
		if errors.As(err, &se) {
			c.Fail(se.Seq, fmt.Sprintf("the exported message does not decode (%v)", se.Err))
			break
		}
		if err != nil {
			return s, err
		}
		c.Add(ev)
		if !r.LineChain(c.Digest()) {
			c.Fail(ev.Seq, fmt.Sprintf("the line of seq %d was changed: the chain through it is not the one it was exported with", ev.Seq))
		}
		if ev.Seq == local.Through && c.Digest().String() != local.Digest {
			c.Fail(ev.Seq, fmt.Sprintf("the export and this workspace's ledger differ at or before seq %d: import into a workspace with an empty ledger", ev.Seq))
		}
		s.Events++
	}
	if through, n, digest, ok := r.Trailer(); ok {
		switch {
		case through != c.Through():
			c.Fail(c.Through()+1, fmt.Sprintf("the export's trailer says it ends at seq %d, its last message is seq %d: messages were removed from the file", through, c.Through()))
		case n != s.Events:
			c.Fail(c.Through(), fmt.Sprintf("the export's trailer counts %d messages, the file holds %d", n, s.Events))
		case digest != c.Digest().String():
			c.Fail(c.Through(), fmt.Sprintf("the export's trailer says the chain through seq %d is %s, its messages hash to %s: a message in %d..%d was changed",
				through, digest, c.Digest(), c.Verified()+1, through))
		}
	}
	s.Problem = c.Finish()
	s.Through, s.Checkpoints, s.Digest = c.Through(), c.Checkpoints(), c.Digest().String()
	if s.Problem != nil {
		return s, fmt.Errorf("refusing the export: %w", &BrokenError{*s.Problem})
	}
	return s, nil
}

// store is the second pass of Import: it stores the messages after seq
// after, in batches.
func store(ctx context.Context, open func() (io.ReadCloser, error), dst Destination, after, through uint64, progress func(done, total uint64)) error {
	f, err := open()
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := NewReader(f)
	if err != nil {
		return err
	}
	batch := make([]events.Event, 0, importBatch)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := dst.AppendStored(ctx, batch); err != nil {
			return fmt.Errorf("import seq %d..%d: %w", batch[0].Seq, batch[len(batch)-1].Seq, err)
		}
		if progress != nil {
			progress(batch[len(batch)-1].Seq, through)
		}
		batch = batch[:0]
		return nil
	}
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return flush()
		}
		if err != nil {
			return fmt.Errorf("the export changed since it was checked: %w", err)
		}
		if ev.Seq <= after {
			continue
		}
		if batch = append(batch, ev); len(batch) == importBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
}
