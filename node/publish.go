package node

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/gcpace"
)

// Plan scans the content tree and returns the changes that would bring
// the manifest in line with it, and the sequence of the catalog aggregate
// the manifest it compared with was at. The scan hashes only the files
// changed since the last one, and the plan holds no body. When neither
// the tree nor the catalog changed since a publish left them in line
// (publishmark.go), nothing is scanned or compared: the plan is empty.
//
// A content file the scan cannot take (not UTF-8, too large, an unsafe
// name) is held back: it is returned with why, and the plan keeps what
// was last published at its path, neither changed nor removed; the rest
// of the tree is planned as usual.
//
// The plan first gives the objects whose ids are not the ones the ids
// file and their paths say their ids (catalog.Migrate), then brings the
// manifest in line with the files.
func (n *Node) Plan() ([]catalog.Change, []HeldFile, uint64, error) {
	if seq := n.Store.CatalogSeq(); n.unchanged(seq) {
		n.skipped()
		return nil, nil, seq, nil
	}
	files, bad, err := n.scan()
	if err != nil {
		return nil, nil, 0, err
	}
	ids, _, err := n.readIDs()
	if err != nil {
		return nil, nil, 0, err
	}
	pub, seq := n.Store.Published()
	files, held := keepHeld(files, bad, pub)
	migrate, pub := catalog.Migrate(files, pub, ids, n.Store.HasOpenDraft, n.Store.Retired)
	return append(migrate, catalog.Diff(files, pub, ids)...), held, seq, nil
}

// changeEvent returns the event of one change of a plan, reading the body
// of a file to publish from the tree as it is now (a file edited since the
// scan is published as it reads now; one that became unfit is a
// *content.FileError, and is held back).
//
// unfit is set when the file is a rule or workflow that a team's catalog
// would refuse as it is (content.CheckRule): it is published all the same.
func changeEvent(wsID string, r *content.Reader, c catalog.Change) (ev events.Event, unfit *HeldFile, err error) {
	if c.Remove == nil && c.Reid == nil {
		f, err := r.Read(c.File.Source)
		if err != nil {
			return events.Event{}, nil, err
		}
		c.File = f
		if f.Kind == content.KindRule || f.Kind == content.KindWorkflow {
			if err := content.CheckRule(f.Body); err != nil {
				unfit = &HeldFile{Path: f.Source, Reason: strings.TrimPrefix(err.Error(), content.ErrNotARule.Error()+": ")}
			}
		}
	}
	ev, err = c.Event(wsID)
	return ev, unfit, err
}

// bulkPublish is the number of changes from which a publish applies its
// own events (ownapply.go). Below it, what the ledger's server keeps of
// them is small next to a message block (8 MiB).
const bulkPublish = 256

// maxPlans bounds how often Publish plans again after another writer
// changed the manifest under it.
const maxPlans = 8

// Publish appends the catalog events that bring the manifest in line with
// the content tree and waits until they are applied. An unchanged tree
// appends nothing. It returns what was appended: a count, the first
// changes and the sequences of the events (the ledger holds the events).
//
// The plan is a decision on the manifest as of one sequence of the catalog
// aggregate: each event is appended on the condition that the aggregate is
// still where the plan (or the event before it) left it. If another writer
// came first, the manifest is read again and what is left is planned
// again. The tree is scanned and checked whole before anything is
// appended; a bad file is held back (Published.Held names it and why),
// keeps what was last published at its path, and stops nothing else. A
// publish that held files back leaves no publish mark, so that the next
// one looks at them again. The bodies are read one at a time as their events are appended, and no event is kept once it is
// applied, so a publish of any size holds at most a few (ownBatch).
func (n *Node) Publish(ctx context.Context) (Published, error) {
	var done Published
	if _, err := n.CatchUp(ctx); err != nil {
		return done, err
	}
	for attempt := 1; ; attempt++ {
		changes, held, seq, err := n.Plan()
		done.Held = held
		if err != nil || len(changes) == 0 {
			if err == nil {
				err = n.endPublish(seq, done.Held)
			}
			return done, err
		}
		round, last, conflict, err := n.publishChanges(ctx, changes, seq, attempt < maxPlans)
		done.merge(round)
		if err != nil || !conflict {
			if err == nil {
				err = n.endPublish(last, done.Held)
			}
			return done, err
		}
		if _, err := n.CatchUp(ctx); err != nil {
			return done, err
		}
	}
}

// endPublish records the ids of the manifest that its paths do not
// derive in the ids file, then the publish mark for the catalog at seq.
// After a plan without a scan (the mark vouched for the tree, the ids
// file and the catalog) there is nothing to record.
func (n *Node) endPublish(seq uint64, held []HeldFile) error {
	n.scanIdx.mu.Lock()
	scanned := n.scanIdx.last != nil
	n.scanIdx.mu.Unlock()
	if scanned {
		if err := n.recordIDs(); err != nil {
			return err
		}
	}
	n.markPublished(seq, held)
	return nil
}

// publishChanges appends the events of changes one at a time, each on the
// condition that the catalog aggregate is where the one before left it
// (seq for the first), reading each body just before its event. It
// returns what it appended, the sequence of the last, and conflict true
// when another writer came first and retry allows planning again.
func (n *Node) publishChanges(ctx context.Context, changes []catalog.Change, seq uint64, retry bool) (done Published, last uint64, conflict bool, err error) {
	r, err := content.OpenReader(n.WS.ContentRoot())
	if err != nil {
		return done, seq, false, err
	}
	defer r.Close()
	// A large publish applies its own events (ownapply.go); a small one
	// waits for the projector to apply each, which costs no memory at its
	// size.
	var own *ownApply
	if len(changes) >= bulkPublish {
		if own, err = n.applyOwn(ctx); err != nil {
			return done, seq, false, err
		}
		// The publish ends holding what serving holds; its garbage would
		// make the process's peak: the collector runs more often.
		defer gcpace.Lean()()
		defer func() {
			if cerr := own.close(); err == nil && cerr != nil {
				err = fmt.Errorf("publish: %w", cerr)
			}
		}()
	}
	// The plan lets go of each change as it is taken (what it holds of the
	// scan: paths, names, hashes), and of the list's storage as it is used
	// up: once half of it is taken, the rest is copied and the whole let
	// go, so that the end of a publish of any size holds few changes.
	held := len(changes)
	for len(changes) > 0 {
		c := changes[0]
		changes[0] = catalog.Change{}
		changes = changes[1:]
		if len(changes) <= held/2 {
			changes, held = slices.Clone(changes), len(changes)
		}
		ev, unfit, err := changeEvent(n.WS.ID(), r, c)
		if unfit != nil {
			done.Unfit = append(done.Unfit, *unfit)
		}
		var fe *content.FileError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // gone since the scan: the next publish removes it
		case errors.As(err, &fe):
			done.Held = append(done.Held, heldFile(fe))
			continue
		}
		if err != nil {
			return done, seq, false, err
		}
		stored, err := n.Log.AppendExpectingStored(ctx, ev, events.Expectation{Aggregate: events.AggregateCatalog, LastSeq: seq})
		if errors.Is(err, events.ErrConflict) && retry {
			return done, seq, true, nil
		}
		if err != nil {
			return done, seq, false, fmt.Errorf("publish %s: %w", ev.Type, err)
		}
		next := stored.Seq
		done.add(next, c)
		if own != nil {
			err = own.add(ctx, stored)
		} else {
			err = n.WaitApplied(ctx, next)
		}
		if err != nil {
			return done, seq, false, fmt.Errorf("publish %s: %w", ev.Type, err)
		}
		seq = next
	}
	return done, seq, false, nil
}
