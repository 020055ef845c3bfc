package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// catalogHistory is how many revisions of each object a team's catalog
// keeps (JetStream's most).
const catalogHistory = 64

// ErrCatalogChanged means a team's catalog changed while a push or an
// accept was deciding on it: nothing of the push was lost, push again.
var ErrCatalogChanged = errors.New("hub: the team's catalog changed meanwhile")

// ErrNotFound means a team's catalog holds no such object.
var ErrNotFound = errors.New("hub: not found")

// catalogKV opens team's catalog bucket, making it first if create is
// set and it is not made yet. It returns ErrNotFound when the team has no
// catalog and create is not set.
//
// A bucket is made by the catalog's maker (catalogready.go: once, by the
// cluster's writer) or, if it is still missing once the maker gave up
// waiting, created here; it is never updated. A create-or-update, as
// catalogKV asked before, sends an update of the stream (through a
// cluster's meta leader) at every call: at every push, every view of a
// team's catalog and every changed object's revision.
func (h *Hub) catalogKV(ctx context.Context, team string, create bool) (jetstream.KeyValue, error) {
	if !validName(team) {
		return nil, fmt.Errorf("%w: team %q (letters, digits, '-' and '_')", ErrInvalid, team)
	}
	kv, err := h.openCatalogKV(ctx, team)
	if create && errors.Is(err, jetstream.ErrBucketNotFound) {
		h.cats.wait(ctx, team)
		if kv, err = h.openCatalogKV(ctx, team); errors.Is(err, jetstream.ErrBucketNotFound) {
			err = retryUnanswered(ctx, func(ctx context.Context) error { return h.cats.create(ctx, team) })
			if err == nil || errors.Is(err, jetstream.ErrBucketExists) {
				kv, err = h.openCatalogKV(ctx, team)
			}
		}
	}
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, fmt.Errorf("%w: team %s has no catalog (clumsies hub catalog push)", ErrNotFound, team)
	}
	if err != nil {
		return nil, fmt.Errorf("open the catalog of team %s: %w", team, err)
	}
	return kv, nil
}

// openCatalogKV looks team's catalog bucket up, asking again while the
// request goes unanswered.
func (h *Hub) openCatalogKV(ctx context.Context, team string) (jetstream.KeyValue, error) {
	var kv jetstream.KeyValue
	err := retryUnanswered(ctx, func(ctx context.Context) error {
		var err error
		kv, err = h.js.KeyValue(ctx, hubwire.CatalogBucket(team))
		return err
	})
	return kv, err
}

// catalogRevision returns the revision of a catalog: its stream's last
// sequence. A request that goes unanswered is asked again
// (retryUnanswered).
func catalogRevision(ctx context.Context, kv jetstream.KeyValue) (uint64, error) {
	var st jetstream.KeyValueStatus
	err := retryUnanswered(ctx, func(ctx context.Context) error {
		var err error
		st, err = kv.Status(ctx)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("read the catalog's revision: %w", err)
	}
	return st.(*jetstream.KeyValueBucketStatus).StreamInfo().State.LastSeq, nil
}

// readCatalog returns every object of a catalog with its body and
// revision, and the catalog's revision read before them. The entries are
// read through a consumer of the bucket's stream, which its leader
// serves: every write acknowledged before is in them (a direct get, which
// a replica may answer, can miss one, and a decision must not).
func readCatalog(ctx context.Context, kv jetstream.KeyValue) (uint64, []hubwire.CatalogObject, error) {
	rev, err := catalogRevision(ctx, kv)
	if err != nil {
		return 0, nil, err
	}
	var objs []hubwire.CatalogObject
	err = latestEntries(ctx, kv, ">", func(e jetstream.KeyValueEntry) error {
		if e.Operation() != jetstream.KeyValuePut {
			return nil
		}
		o, err := hubwire.DecodeCatalogEntry(e.Value(), e.Revision())
		if err != nil {
			return fmt.Errorf("read the catalog's %s: %w", e.Key(), err)
		}
		rev = max(rev, o.Revision)
		objs = append(objs, o)
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	slices.SortFunc(objs, func(a, b hubwire.CatalogObject) int { return strings.Compare(a.Path, b.Path) })
	return rev, objs, nil
}

// latestEntries calls fn with the newest entry of every key of kv that
// keys matches, a removal's included, as the bucket's stream leader holds
// them.
func latestEntries(ctx context.Context, kv jetstream.KeyValue, keys string, fn func(jetstream.KeyValueEntry) error) error {
	w, err := kv.Watch(ctx, keys)
	if err != nil {
		return fmt.Errorf("read the catalog: %w", err)
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("read the catalog: %w", ctx.Err())
		case e, ok := <-w.Updates():
			if !ok {
				return fmt.Errorf("read the catalog: the watch ended")
			}
			if e == nil {
				return nil // every key's newest entry delivered
			}
			if err := fn(e); err != nil {
				return err
			}
		}
	}
}

func encodeCatalogEntry(o hubwire.CatalogObject) []byte {
	o.Revision = 0
	b, _ := json.Marshal(o)
	return b
}

// PushCatalog makes team's catalog hold exactly files (the meta prompt
// left out), as `clumsies publish` makes a workspace's manifest hold its
// content tree: an object keeps its id across edits and renames, every
// change is a new revision, and nothing is written when nothing changed.
// Each change is one event of the hub's ledger, holding the whole change;
// the catalog's entries are derived from them (deriveEntry), and PushCatalog
// returns once they are.
func (h *Hub) PushCatalog(ctx context.Context, team string, files []hubwire.CatalogFile) (hubwire.PushResult, error) {
	out := hubwire.PushResult{Team: team, Published: []hubwire.CatalogChange{}, Removed: []hubwire.CatalogChange{}}
	tree, skipped, err := catalogTree(files)
	if err != nil {
		return out, err
	}
	out.Skipped = skipped
	h.catMu.Lock()
	defer h.catMu.Unlock()
	var last uint64
	for attempt := 1; ; attempt++ {
		last, err = h.pushOnce(ctx, team, tree, &out)
		if errors.Is(err, events.ErrConflict) && attempt < maxDecisions {
			continue // another hub changed the team's catalog: plan again
		}
		if errors.Is(err, events.ErrConflict) {
			return out, fmt.Errorf("%w: %w", ErrCatalogChanged, err)
		}
		if err != nil {
			return out, err
		}
		break
	}
	if err := h.applied(ctx, last); err != nil {
		return out, err
	}
	for _, cs := range [][]hubwire.CatalogChange{out.Published, out.Removed} {
		for i := range cs {
			if cs[i].Revision, err = h.entryRevision(ctx, team, cs[i].ID); err != nil {
				return out, err
			}
		}
	}
	kv, err := h.catalogKV(ctx, team, true)
	if err != nil {
		return out, err
	}
	if out.Revision, err = catalogRevision(ctx, kv); err != nil {
		return out, err
	}
	return out, nil
}

// pushOnce plans the push of tree on team's catalog and records each
// change, adding it to out. It returns the sequence of the last event it
// recorded (the team's newest when there was nothing to record).
func (h *Hub) pushOnce(ctx context.Context, team string, tree []content.File, out *hubwire.PushResult) (uint64, error) {
	v, err := h.teamView(ctx, team, "")
	if err != nil {
		return 0, err
	}
	published := make([]catalog.Published, 0, len(v.objs))
	for _, o := range v.objs {
		published = append(published, catalog.Published{ID: o.ID, Kind: o.Kind, Path: o.Path, Hash: o.Hash})
	}
	plan, err := catalog.Plan(planWorkspace, tree, published, nil)
	if err != nil {
		return 0, fmt.Errorf("plan the push: %w", err)
	}
	last := v.seq
	for _, ev := range plan {
		typ, d, err := pushedChange(ev)
		if err != nil {
			return 0, err
		}
		if last, err = h.record(ctx, team, "", typ, d, last); err != nil {
			return 0, err
		}
		c := hubwire.CatalogChange{ID: d.ID, Kind: content.Kind(d.Kind), Path: d.Path}
		if typ == events.TypeHubCatalogRemove {
			out.Removed = append(out.Removed, c)
		} else {
			out.Published = append(out.Published, c)
		}
	}
	return last, nil
}

// teamView is what a decision about a team reads: the sequence of the
// team's newest event in the hub's ledger, its catalog's objects (with
// their bodies) as of that event or later, and the outcome of one review
// the ledger records, if any. A decision taken on it is recorded on the
// condition that seq is still the team's newest event.
type teamView struct {
	seq     uint64
	objs    []hubwire.CatalogObject
	outcome recordedOutcome
	decided bool
}

// teamView reads team's view once the ledger's follower has applied what
// the ledger holds; review names the review whose outcome to read.
func (h *Hub) teamView(ctx context.Context, team, review string) (teamView, error) {
	var v teamView
	kv, err := h.catalogKV(ctx, team, true)
	if err != nil {
		return v, err
	}
	if err := h.catchUp(ctx); err != nil {
		return v, err
	}
	v.seq, v.outcome, v.decided = h.ledger.team(team, review)
	err = retryUnanswered(ctx, func(ctx context.Context) error {
		var err error
		_, v.objs, err = readCatalog(ctx, kv)
		return err
	})
	return v, err
}

// maxDecisions bounds how often a push or a review decision is taken
// again because another hub's change of the team came first.
const maxDecisions = 10

// pushedChange turns an event of a push's plan into the hub's catalog
// event that records it.
func pushedChange(ev events.Event) (events.Type, events.HubCatalogData, error) {
	switch ev.Type {
	case events.TypeCatalogPublish:
		var d events.PublishData
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return "", events.HubCatalogData{}, fmt.Errorf("read the push's plan: %w", err)
		}
		return events.TypeHubCatalogPublish, events.HubCatalogData{ID: d.ID, Kind: d.Kind, Path: d.Path, Hash: d.Hash, By: "push",
			Description: d.Description, Body: d.Body, Whole: true}, nil
	case events.TypeCatalogRemove:
		var d events.RemoveData
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return "", events.HubCatalogData{}, fmt.Errorf("read the push's plan: %w", err)
		}
		return events.TypeHubCatalogRemove, events.HubCatalogData{ID: d.ID, Kind: d.Kind, Path: d.Path, By: "push", Whole: true}, nil
	}
	return "", events.HubCatalogData{}, fmt.Errorf("plan the push: %w: a %s event", ErrInvalid, ev.Type)
}

// planWorkspace names the workspace of the events catalog.Plan returns for
// a team's catalog; they are read for their payloads and never stored.
const planWorkspace = "ws-hub"

// catalogTree checks pushed files and turns them into a content tree, in
// Scan's order. The meta prompt is skipped. A rule or workflow that is not
// well-formed (content.CheckRule) is refused, every such file named.
func catalogTree(files []hubwire.CatalogFile) ([]content.File, []string, error) {
	var tree []content.File
	var skipped, bad []string
	seen := map[string]bool{}
	for _, f := range files {
		kind, public, ok := content.Classify(f.Source)
		if !ok {
			return nil, nil, fmt.Errorf("%w: %s is not a content file (rules/**.md, context/**.md)", ErrInvalid, f.Source)
		}
		if clean, err := content.CleanPath(public); err != nil || clean != public {
			return nil, nil, fmt.Errorf("%w: %s: unsafe name", ErrInvalid, f.Source)
		}
		if seen[f.Source] {
			return nil, nil, fmt.Errorf("%w: %s is pushed twice", ErrInvalid, f.Source)
		}
		seen[f.Source] = true
		if kind == content.KindMPF {
			skipped = append(skipped, f.Source)
			continue
		}
		if len(f.Body) > content.MaxFileSize {
			return nil, nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrInvalid, f.Source, content.MaxFileSize)
		}
		if kind == content.KindRule || kind == content.KindWorkflow {
			if err := content.CheckRule(f.Body); err != nil {
				bad = append(bad, f.Source+": "+strings.TrimPrefix(err.Error(), content.ErrNotARule.Error()+": "))
				continue
			}
		}
		tree = append(tree, content.File{Source: f.Source, Kind: kind, Path: public, Name: content.NameOf(public),
			Group: content.GroupOf(public), Body: f.Body, Hash: content.Hash([]byte(f.Body))})
	}
	if len(bad) > 0 {
		return nil, nil, fmt.Errorf("%w: %d file(s) are not well-formed rules, nothing was pushed: %s", ErrInvalid, len(bad), strings.Join(bad, "; "))
	}
	return tree, skipped, nil
}

// TeamManifest returns team's catalog without bodies. A team without a
// catalog has an empty one at revision 0.
func (h *Hub) TeamManifest(ctx context.Context, team string) (hubwire.Manifest, error) {
	m := hubwire.Manifest{Team: team, Objects: []hubwire.CatalogObject{}}
	kv, err := h.catalogKV(ctx, team, false)
	if errors.Is(err, ErrNotFound) {
		return m, nil
	}
	if err != nil {
		return m, err
	}
	var rev uint64
	var objs []hubwire.CatalogObject
	err = retryUnanswered(ctx, func(ctx context.Context) error {
		var err error
		rev, objs, err = readCatalog(ctx, kv)
		return err
	})
	if err != nil {
		return m, err
	}
	m.Revision = rev
	for _, o := range objs {
		o.Body = ""
		m.Objects = append(m.Objects, o)
	}
	return m, nil
}

// TeamObject returns one object of team's catalog with its body.
func (h *Hub) TeamObject(ctx context.Context, team, id string) (hubwire.CatalogObject, error) {
	kv, err := h.catalogKV(ctx, team, false)
	if err != nil {
		return hubwire.CatalogObject{}, err
	}
	var e jetstream.KeyValueEntry
	err = retryUnanswered(ctx, func(ctx context.Context) error {
		var err error
		e, err = kv.Get(ctx, id)
		return err
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrInvalidKey) {
		return hubwire.CatalogObject{}, fmt.Errorf("%w: team %s has no object %q", ErrNotFound, team, id)
	}
	if err != nil {
		return hubwire.CatalogObject{}, fmt.Errorf("read %s of team %s: %w", id, team, err)
	}
	return hubwire.DecodeCatalogEntry(e.Value(), e.Revision())
}

// TeamHistory returns the revisions of one object of team's catalog,
// oldest first, without bodies.
func (h *Hub) TeamHistory(ctx context.Context, team, id string) ([]hubwire.CatalogObject, error) {
	kv, err := h.catalogKV(ctx, team, false)
	if err != nil {
		return nil, err
	}
	var es []jetstream.KeyValueEntry
	err = retryUnanswered(ctx, func(ctx context.Context) error {
		var err error
		es, err = kv.History(ctx, id)
		return err
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrInvalidKey) {
		return nil, fmt.Errorf("%w: team %s has no object %q", ErrNotFound, team, id)
	}
	if err != nil {
		return nil, fmt.Errorf("read the history of %s: %w", id, err)
	}
	out := make([]hubwire.CatalogObject, 0, len(es))
	for _, e := range es {
		if e.Operation() != jetstream.KeyValuePut {
			out = append(out, hubwire.CatalogObject{ID: id, Revision: e.Revision(), Removed: true})
			continue
		}
		o, err := hubwire.DecodeCatalogEntry(e.Value(), e.Revision())
		if err != nil {
			return nil, err
		}
		o.Body = ""
		out = append(out, o)
	}
	return out, nil
}
