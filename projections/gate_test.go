package projections_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// Rules scoped to api/ and web/, for the gate's tests.
const (
	gateAPI = "p-00000000000000000000000000000b01"
	gateWeb = "p-00000000000000000000000000000b02"
)

const (
	apiV1 = "---\npaths: [\"api/**/*.go\"]\n---\n# H\n\nx\n\n## Do\n\n- y\n"
	// apiProse is apiV1 with another title and an example: the same
	// constraints.
	apiProse = "---\npaths: [\"api/**/*.go\"]\n---\n# Handlers\n\nx\n\n## Do\n\n- y\n\n## Examples\n\nz\n"
	// apiV2 changes the constraint of apiV1.
	apiV2 = "---\npaths: [\"api/**/*.go\"]\n---\n# H\n\nx\n\n## Do\n\n- y, and log it\n"
	webV1 = "---\npaths: [\"web/**\"]\n---\n# U\n\nx\n\n## Do\n\n- y\n"
)

// gateOf returns the gate of session for paths as the store reads it.
func gateOf(tb testing.TB, s *projections.Store, session string, paths ...string) projections.Gate {
	tb.Helper()
	g, err := projections.GateOf(mustList(tb, s, projections.Filter{}), paths, s.SessionLoads(session), func(id string) (projections.Version, error) {
		it, err := s.View(context.Background(), id)
		return projections.InForce(it), err
	})
	if err != nil {
		tb.Fatalf("gate of %s: %v", session, err)
	}
	return g
}

// missing returns the ids g says are missing.
func missing(g projections.Gate) []string {
	ids := []string{}
	for _, m := range g.Missing {
		ids = append(ids, m.Item.ID)
	}
	return ids
}

// served returns the record of memload serving id as the store shows it
// now, with its content (changed) or without.
func served(tb testing.TB, s *projections.Store, id string, changed bool) events.LoadedItem {
	tb.Helper()
	v := projections.InForce(mustView(tb, s, id))
	return events.LoadedItem{ID: id, Hash: v.Hash, Changed: changed, ConstraintsHash: v.Constraints}
}

func loadOf(items ...events.LoadedItem) events.LoadData { return events.LoadData{Items: items} }

// The evidence rows keep the versions each session received
// (successful memload calls only), across a reopen and in a rebuild
// alike, and GateOf names the rules in scope for some files that the
// session has not loaded.
func TestStore_Gate(t *testing.T) {
	l := newLedger(t)
	fs := vfs.NewMem()
	s := openAt(t, fs, "/db", projections.Options{})
	apply(t, s, l.publish(gateAPI, content.KindRule, "api/HANDLERS.md", apiV1), l.publish(gateWeb, content.KindRule, "web/UI.md", webV1))
	apply(t, s,
		l.add(events.TypeLoad, loadOf(served(t, s, gateWeb, true)), inSession("s1")),
		l.add(events.TypeLoad, loadOf(served(t, s, gateAPI, true)), inSession("s2")),
		l.add(events.TypeLoad, events.FailureData{Message: "no"}, inSession("s1"), failed(string(events.CodeUnknownRule))))
	paths := []string{"api/v1/users.go", "web/app.ts", "README.md"}
	check := func(when string, s *projections.Store) {
		t.Helper()
		if got := s.SessionLoaded("s1"); !reflect.DeepEqual(got, []string{gateWeb}) {
			t.Fatalf("%s: s1 loaded %q, want only %s", when, got, gateWeb)
		}
		g := gateOf(t, s, "s1", paths...)
		if g.InScope != 2 || len(g.Missing) != 1 || g.Missing[0].Item.ID != gateAPI || !reflect.DeepEqual(g.Missing[0].Matched, []string{"api/v1/users.go"}) {
			t.Fatalf("%s: gate of s1 %+v, want %s missing for api/v1/users.go", when, g, gateAPI)
		}
		if g := gateOf(t, s, "nobody", paths...); len(g.Missing) != 2 {
			t.Fatalf("%s: gate of a session that loaded nothing: %+v, want both rules missing", when, g)
		}
	}
	check("live", s)
	live := digest(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	check("reopened", openAt(t, fs, "/db", projections.Options{}))
	r, err := projections.Rebuild(testCtx(t), l.log, "/re", projections.Options{FS: vfs.NewMem()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeQuietly(r)
	check("rebuilt", r)
	if got := digest(t, r); got != live {
		t.Fatalf("rebuild digest %s, live %s", got, live)
	}
}

// A memload answer to a known hash sends no content: it counts only when
// the session had received that version's content before, and neither
// does the evidence count it as a load.
func TestGate_KnownHashesWithoutBodyDoesNotCount(t *testing.T) {
	l, s := newLedger(t), openMem(t)
	apply(t, s, l.publish(gateAPI, content.KindRule, "api/HANDLERS.md", apiV1))
	apply(t, s, l.add(events.TypeLoad, loadOf(served(t, s, gateAPI, false)), inSession("guess")))
	if got := missing(gateOf(t, s, "guess", "api/a.go")); !reflect.DeepEqual(got, []string{gateAPI}) {
		t.Errorf("a session that named the current hash without receiving it: missing %q, want %s", got, gateAPI)
	}
	if e, err := s.SessionEvidence("guess"); err == nil && len(e.Rules) > 0 && e.Rules[0].Loaded {
		t.Errorf("evidence of the session that received nothing: got %s, want not loaded", jsonOf(e))
	}
	apply(t, s,
		l.add(events.TypeLoad, loadOf(served(t, s, gateAPI, true)), inSession("held")),
		l.add(events.TypeLoad, loadOf(served(t, s, gateAPI, false)), inSession("held")))
	if got := missing(gateOf(t, s, "held", "api/a.go")); len(got) != 0 {
		t.Errorf("a session that received the content, then named its hash: missing %q, want none", got)
	}
}

// A load of an earlier version stops counting when a version with other
// constraints is published; one that changes only what is not a
// constraint (title, examples) still counts.
func TestGate_LoadOfOlderVersionDoesNotCount(t *testing.T) {
	l, s := newLedger(t), openMem(t)
	apply(t, s, l.publish(gateAPI, content.KindRule, "api/HANDLERS.md", apiV1))
	apply(t, s, l.add(events.TypeLoad, loadOf(served(t, s, gateAPI, true)), inSession("s1")))
	apply(t, s, l.publish(gateAPI, content.KindRule, "api/HANDLERS.md", apiProse))
	if got := missing(gateOf(t, s, "s1", "api/a.go")); len(got) != 0 {
		t.Errorf("after a version with the same constraints: missing %q, want none", got)
	}
	apply(t, s, l.publish(gateAPI, content.KindRule, "api/HANDLERS.md", apiV2))
	if got := missing(gateOf(t, s, "s1", "api/a.go")); !reflect.DeepEqual(got, []string{gateAPI}) {
		t.Errorf("after a version with another constraint: missing %q, want %s", got, gateAPI)
	}
	apply(t, s, l.add(events.TypeLoad, loadOf(served(t, s, gateAPI, true)), inSession("s1")))
	if got := missing(gateOf(t, s, "s1", "api/a.go")); len(got) != 0 {
		t.Errorf("after loading the new version: missing %q, want none", got)
	}
}

// A load that served a draft's content never counts: not while another
// session's draft of the rule is open, and not in the evidence.
func TestGate_DraftLoadDoesNotCount(t *testing.T) {
	l, s := newLedger(t), openMem(t)
	apply(t, s, l.publish(gateAPI, content.KindRule, "api/HANDLERS.md", apiV1))
	apply(t, s, l.add(events.TypeDraftUpdate, events.DraftData{Resource: "rule", ID: gateAPI, Op: events.DraftOpUpdate, Path: "api/HANDLERS.md", Body: apiProse,
		BaseHash: content.Hash([]byte(apiV1))}, inSession("author")))
	draft := mustView(t, s, gateAPI)
	if draft.InForce == nil || draft.InForce.Hash != content.Hash([]byte(apiV1)) {
		t.Fatalf("view with a draft: got %s, want the published version in force", jsonOf(draft))
	}
	// The draft's body, as memload served it before it served the rule
	// in force, and recorded as a draft.
	apply(t, s,
		l.add(events.TypeLoad, loadOf(events.LoadedItem{ID: gateAPI, Hash: draft.Hash, Changed: true}), inSession("old")),
		l.add(events.TypeLoad, loadOf(events.LoadedItem{ID: gateAPI, Hash: draft.Hash, Changed: true, Draft: true,
			ConstraintsHash: projections.VersionOf(draft).Constraints}), inSession("new")))
	for _, session := range []string{"old", "new"} {
		if got := missing(gateOf(t, s, session, "api/a.go")); !reflect.DeepEqual(got, []string{gateAPI}) {
			t.Errorf("%s: a session that received a draft: missing %q, want %s", session, got, gateAPI)
		}
	}
	if e, err := s.SessionEvidence("new"); err == nil && len(e.Rules) > 0 && e.Rules[0].Loaded {
		t.Errorf("evidence of the session that received a draft: got %s, want not loaded", jsonOf(e))
	}
	apply(t, s, l.add(events.TypeLoad, loadOf(served(t, s, gateAPI, true)), inSession("new")))
	if got := missing(gateOf(t, s, "new", "api/a.go")); len(got) != 0 {
		t.Errorf("after loading the rule in force: missing %q, want none", got)
	}
}

// A catalog.reid moves the versions a session received to the rule's new
// id, as the evidence does: a rule loaded under its old id is loaded.
func TestGate_FollowsReid(t *testing.T) {
	const oldID = "p-00000000000000000000000000000b0f"
	fs := vfs.NewMem()
	l, s := newLedger(t), openAt(t, fs, "/db", projections.Options{})
	apply(t, s, l.publish(oldID, content.KindRule, "api/HANDLERS.md", apiV1))
	apply(t, s, l.add(events.TypeLoad, loadOf(served(t, s, oldID, true)), inSession("s1")))
	apply(t, s,
		l.publish(gateAPI, content.KindRule, "api/HANDLERS.md", apiV1),
		l.add(events.TypeCatalogReid, events.ReidData{From: oldID, To: gateAPI, Kind: "rule", Path: "api/HANDLERS.md"}))
	check := func(when string, s *projections.Store) {
		t.Helper()
		if got := missing(gateOf(t, s, "s1", "api/a.go")); len(got) != 0 {
			t.Errorf("%s: missing %q, want none (loaded under the old id)", when, got)
		}
		if got := s.SessionLoaded("s1"); !reflect.DeepEqual(got, []string{gateAPI}) {
			t.Errorf("%s: loaded %q, want the new id only", when, got)
		}
		if e, err := s.SessionEvidence("s1"); err != nil || len(e.Rules) != 1 || e.Rules[0].ID != gateAPI || !e.Rules[0].Loaded {
			t.Errorf("%s: evidence %s (%v), want the new id loaded", when, jsonOf(e), err)
		}
	}
	check("live", s)
	live := digest(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	check("reopened", openAt(t, fs, "/db", projections.Options{}))
	r, err := projections.Rebuild(testCtx(t), l.log, "/re", projections.Options{FS: vfs.NewMem()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeQuietly(r)
	check("rebuilt", r)
	if got := digest(t, r); got != live {
		t.Fatalf("rebuild digest %s, live %s", got, live)
	}
}
