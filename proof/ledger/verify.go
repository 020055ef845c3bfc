package ledger

import (
	"context"
	"errors"
	"fmt"

	"github.com/clumsies/clumsies/events"
)

// Source is a ledger that can be read in order: an events.Log.
type Source interface {
	Replay(ctx context.Context, from uint64, fn func(events.Event) error) error
}

// StoredSource is a Source that can also deliver what a damaged ledger
// still holds, without refusing it (natsjs.Log.ReplayStored): Check uses
// it to name the first sequence missing.
type StoredSource interface {
	ReplayStored(ctx context.Context, from uint64, fn func(events.Event) error) error
}

// Result is what a check of a whole ledger found: the Checker's state at
// its end (Through, the last stored message's sequence; Signed the
// checkpoints whose signature was checked and holds, Unchecked those
// signed by a node whose key was not at hand; Verified, the sequence
// through which the checkpoints agree with the stored messages; Problem,
// the first disagreement, nil if the chain holds), and where it failed.
type Result struct {
	CheckerState
	// Missing lists the sequences the stream lacks: gaps among its
	// messages and a removed tail (beyond its last sequence, as far as
	// the read models or the stream's own counts had seen it).
	Missing []Span `json:"missing,omitempty"`
	// Changed lists the sequences whose stored message is not the one
	// the read models applied (see Checker.Remember).
	Changed []uint64 `json:"changed,omitempty"`
}

// Check recomputes the chain of the ledger of workspaceID from its first
// message with c (nil: a new Checker) and checks every checkpoint. It
// reads a damaged ledger too when src is a StoredSource. A
// stored message that does not decode is a problem at its sequence, not
// an error; errors are those of reading the ledger.
func Check(ctx context.Context, src Source, workspaceID string, c *Checker) (Result, error) {
	if c == nil {
		c = NewChecker(workspaceID)
	}
	replay := src.Replay
	if st, ok := src.(StoredSource); ok {
		replay = st.ReplayStored
	}
	// A log that knows its last sequence shows a tail lost from its
	// messages but not from its counts.
	var last uint64
	if l, ok := src.(interface {
		LastSeq(ctx context.Context) (uint64, error)
	}); ok {
		var err error
		if last, err = l.LastSeq(ctx); err != nil {
			return Result{}, fmt.Errorf("check the ledger's chain: %w", err)
		}
	}
	// A stored message that does not decode is named, and the messages
	// after it are read on: they are not missing.
	for from := uint64(1); ; {
		err := replay(ctx, from, func(ev events.Event) error {
			c.Add(ev)
			return nil
		})
		var se *events.StoredError
		if errors.As(err, &se) && se.Seq >= from {
			c.Undecodable(se.Seq, fmt.Sprintf("the stored message does not decode (%v)", se.Err))
			from = se.Seq + 1
			continue
		}
		if err != nil {
			return Result{}, fmt.Errorf("check the ledger's chain: %w", err)
		}
		break
	}
	if through := c.Through(); through < last {
		c.lost(Span{through + 1, last})
		c.Fail(through+1, fmt.Sprintf("the stream's last sequence is %d, its stored messages end at seq %d: %d..%d are missing", last, through, through+1, last))
	}
	return result(c, c.Finish()), nil
}

func result(c *Checker, p *Problem) Result {
	r := Result{CheckerState: c.State(), Missing: c.Missing(), Changed: c.Changed()}
	r.Problem = p
	return r
}
