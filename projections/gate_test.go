package projections_test

import (
	"reflect"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// The compliance model keeps which ids each session loaded (successful
// memload calls only), across a reopen and in a rebuild alike, and GateOf
// names the rules in scope for some files that the session has not loaded.
func TestStore_Gate(t *testing.T) {
	const api = "p-00000000000000000000000000000b01"
	const web = "p-00000000000000000000000000000b02"
	l := newLedger(t)
	l.publish(api, content.KindRule, "api/HANDLERS.md", "---\npaths: [\"api/**/*.go\"]\n---\n# H\n\nx\n\n## Do\n\n- y\n")
	l.publish(web, content.KindRule, "web/UI.md", "---\npaths: [\"web/**\"]\n---\n# U\n\nx\n\n## Do\n\n- y\n")
	l.add(events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: web, Hash: "h"}}}, inSession("s1"))
	l.add(events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: api, Hash: "h"}}}, inSession("s2"))
	l.add(events.TypeLoad, events.FailureData{Message: "no"}, inSession("s1"), failed(string(events.CodeUnknownRule)))
	fs := vfs.NewMem()
	s := openAt(t, fs, "/db", projections.Options{})
	apply(t, s, l.all()...)
	paths := []string{"api/v1/users.go", "web/app.ts", "README.md"}
	check := func(when string, s *projections.Store) {
		t.Helper()
		if got := s.SessionLoaded("s1"); !reflect.DeepEqual(got, []string{web}) {
			t.Fatalf("%s: s1 loaded %q, want only %s", when, got, web)
		}
		g := projections.GateOf(mustList(t, s, projections.Filter{}), paths, s.SessionLoaded("s1"))
		if g.InScope != 2 || len(g.Missing) != 1 || g.Missing[0].Item.ID != api || !reflect.DeepEqual(g.Missing[0].Matched, []string{"api/v1/users.go"}) {
			t.Fatalf("%s: gate of s1 %+v, want %s missing for api/v1/users.go", when, g, api)
		}
		if g := projections.GateOf(mustList(t, s, projections.Filter{}), paths, s.SessionLoaded("nobody")); len(g.Missing) != 2 {
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
