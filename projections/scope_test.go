package projections_test

import (
	"reflect"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/projections"
)

// A rule's front matter paths are published with it: the objects, memdisc's
// list and memload's view carry them, after a reopen too, and InScope
// picks the rules whose globs match the files given.
func TestStore_Paths(t *testing.T) {
	const api = "p-00000000000000000000000000000a01"
	const web = "p-00000000000000000000000000000a02"
	const all = "p-00000000000000000000000000000a03"
	l := newLedger(t)
	l.publish(api, content.KindRule, "api/HANDLERS.md", "---\npaths:\n  - \"api/**/*.go\"\n---\n# Handlers\n\nHow handlers answer.\n\n## Errors\n\n- Map errors once.\n")
	l.publish(web, content.KindRule, "web/UI.md", "---\npaths: [\"web/**\", \"api/**/*.ts\"]\n---\n# UI\n\nx\n\n## Do\n\n- y\n")
	l.publish(all, content.KindRule, "ALL.md", "# All\n\nEverywhere.\n\n## Do\n\n- z\n")
	fs := vfs.NewMem()
	s := openAt(t, fs, "/db", projections.Options{})
	apply(t, s, l.all()...)
	check := func(when string, s *projections.Store) {
		t.Helper()
		want := map[string][]string{api: {"api/**/*.go"}, web: {"web/**", "api/**/*.ts"}, all: nil}
		items := mustList(t, s, projections.Filter{})
		for _, it := range items {
			if !reflect.DeepEqual(it.Paths, want[it.ID]) {
				t.Errorf("%s: List: %s has paths %q, want %q", when, it.ID, it.Paths, want[it.ID])
			}
		}
		for _, o := range objects(t, s) {
			if !reflect.DeepEqual(o.Paths, want[o.ID]) {
				t.Errorf("%s: Objects: %s has paths %q, want %q", when, o.ID, o.Paths, want[o.ID])
			}
		}
		if got := mustView(t, s, api); !reflect.DeepEqual(got.Paths, want[api]) || len(got.Constraints) != 1 {
			t.Errorf("%s: View: paths %q and %d constraints, want %q and 1", when, got.Paths, len(got.Constraints), want[api])
		}
		scoped := projections.InScope(items, []string{"api/v1/users.go", "README.md", "api/client.ts"})
		var got []string
		for _, sc := range scoped {
			got = append(got, sc.Item.ID+" "+sc.Matched[0]+" "+string(rune('0'+len(sc.Matched))))
		}
		if want := []string{api + " api/v1/users.go 1", web + " api/client.ts 1"}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: InScope: got %q, want %q", when, got, want)
		}
	}
	check("live", s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	check("reopened", openAt(t, fs, "/db", projections.Options{}))
}
