package node

import (
	"context"
	"fmt"
	"reflect"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/proof/ledger"
)

// Report is the outcome of Verify. Problems is empty when everything agrees.
type Report struct {
	Events       uint64   `json:"events"`
	Digest       string   `json:"digest"`
	ReplayDigest string   `json:"replayDigest"`
	Objects      int      `json:"objects"`
	Problems     []string `json:"problems"`
	// Chain is the check of the ledger's hash chain against its
	// checkpoints and the read models.
	Chain ledger.Result `json:"chain"`
}

// OK reports whether verification found no problem.
func (r Report) OK() bool { return len(r.Problems) == 0 }

// Verify checks the ledger's hash chain from the first event (every
// stored message against the checkpoints, and against the chain the read
// models computed as they applied it, which catches a removed tail and
// names a rewritten message at its sequence: see checkChain), that
// the live read models equal a fresh replay of the stream (built in
// memory, the live store is not touched), that every published object's
// hash and constraint hashes match its body, and that the content tree on
// disk matches the published manifest.
func (n *Node) Verify(ctx context.Context) (Report, error) {
	var r Report
	// A damaged stream stops the projector: the chain check still names
	// what is missing, so a failed catch-up is reported after it.
	_, caughtUp := n.CatchUp(ctx)
	live := n.store()
	if live == nil {
		return r, fmt.Errorf("verify: %w: the read models are not open", ErrProjector)
	}
	var err error
	if r.Chain, err = n.checkChain(ctx, live); err != nil {
		return r, err
	}
	r.Problems = chainProblems(r.Chain)
	if caughtUp != nil {
		if r.Chain.Problem == nil {
			return r, caughtUp
		}
		r.Problems = append(r.Problems, fmt.Sprintf("the read models cannot catch up: %v", caughtUp))
		return r, nil
	}
	return r, n.verifyModels(ctx, live, &r)
}

// verifyModels adds to r the checks of the read models live: they equal
// a replay of the stream, every object's hashes match its body, and the
// content tree matches the manifest.
func (n *Node) verifyModels(ctx context.Context, live *projections.Store, r *Report) error {
	var err error
	if r.Digest, err = live.Digest(); err != nil {
		return err
	}
	replay, err := projections.Rebuild(ctx, n.Log, "", projections.Options{FS: vfs.NewMem(), Logger: n.logger}, nil)
	if err != nil {
		if r.Chain.Problem == nil {
			return fmt.Errorf("replay the stream: %w", err)
		}
		// The chain names what is wrong; the replay cannot get past it.
		r.Problems = append(r.Problems, fmt.Sprintf("the stream does not replay: %v", err))
		return nil
	}
	defer replay.Close()
	if r.ReplayDigest, err = replay.Digest(); err != nil {
		return err
	}
	r.Events = replay.Checkpoint()
	if live.Checkpoint() != replay.Checkpoint() {
		r.Problems = append(r.Problems, fmt.Sprintf("read models are at sequence %d, the stream at %d", live.Checkpoint(), replay.Checkpoint()))
	}
	if r.Digest != r.ReplayDigest {
		r.Problems = append(r.Problems, "read models differ from a replay of the stream: "+diffModels(live, replay)+"; run `clumsies rebuild`")
	}
	objs, err := live.Objects()
	if err != nil {
		return err
	}
	r.Objects = len(objs)
	for _, meta := range objs {
		r.Problems = append(r.Problems, checkObject(live, meta.ID)...)
	}
	plan, held, _, err := n.Plan()
	for _, h := range held {
		r.Problems = append(r.Problems, fmt.Sprintf("content tree: %s: %s", h.Path, h.Reason))
	}
	if err != nil {
		r.Problems = append(r.Problems, "content tree: "+err.Error())
	} else if len(plan) > 0 {
		r.Problems = append(r.Problems, fmt.Sprintf("content tree differs from the published manifest (%s); run `clumsies publish`", describePlan(plan)))
	}
	return nil
}

// checkObject compares an object's stored hashes with its body.
func checkObject(s *projections.Store, id string) []string {
	o, err := s.Object(id)
	if err != nil {
		return []string{fmt.Sprintf("object %s: %v", id, err)}
	}
	var out []string
	if h := content.Hash([]byte(o.Body)); h != o.Hash {
		out = append(out, fmt.Sprintf("object %s (%s): stored hash %s, body hashes to %s", o.ID, o.Path, o.Hash, h))
	}
	if o.Kind == content.KindRule || o.Kind == content.KindWorkflow {
		if want := content.ParseConstraints(o.Name, o.Body); !reflect.DeepEqual(normal(o.Constraints), normal(want)) {
			out = append(out, fmt.Sprintf("object %s (%s): stored constraints differ from its body", o.ID, o.Path))
		}
	}
	return out
}

func normal(cs []content.Constraint) []content.Constraint {
	if len(cs) == 0 {
		return nil
	}
	return cs
}

// diffModels names the read models that differ between two stores.
func diffModels(a, b *projections.Store) string {
	var names []string
	oa, aerr := a.Objects()
	ob, berr := b.Objects()
	if aerr != nil || berr != nil || !reflect.DeepEqual(oa, ob) {
		names = append(names, "manifest")
	}
	da, aerr := a.Drafts()
	db, berr := b.Drafts()
	ca, caerr := a.ClosedDrafts()
	cb, cberr := b.ClosedDrafts()
	if aerr != nil || berr != nil || caerr != nil || cberr != nil || !reflect.DeepEqual(da, db) || !reflect.DeepEqual(ca, cb) {
		names = append(names, "drafts")
	}
	if !reflect.DeepEqual(a.Usage(), b.Usage()) {
		names = append(names, "usage")
	}
	if !reflect.DeepEqual(a.Sessions(), b.Sessions()) {
		names = append(names, "sessions")
	}
	if !reflect.DeepEqual(a.Tools(), b.Tools()) {
		names = append(names, "tool metrics")
	}
	if len(names) == 0 {
		return "stored bytes differ"
	}
	return fmt.Sprint(names)
}

func describePlan(changes []catalog.Change) string {
	pub, rem, reid := 0, 0, 0
	for _, c := range changes {
		switch {
		case c.Reid != nil:
			reid++
		case c.Remove != nil:
			rem++
		default:
			pub++
		}
	}
	if reid > 0 {
		return fmt.Sprintf("%d to publish, %d to remove, %d ids to change", pub-reid, rem, reid)
	}
	return fmt.Sprintf("%d to publish, %d to remove", pub, rem)
}
