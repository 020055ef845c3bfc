package projections_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// everyModel returns a ledger whose events give every read model rows:
// the busy ledger (catalog, drafts, usage, sessions, tools) and hook
// events (compliance), with a session that sets up under an id no hook
// announced after hooks have announced others.
func everyModel(tb testing.TB) []events.Event {
	tb.Helper()
	l := busyLedger(tb, 40)
	l.add(events.TypeSessionStart, events.SessionStartData{Host: "claude-code", Source: "startup"}, hook("h1"))
	l.add(events.TypeSetup, events.SetupData{}, inSession("h1"))
	l.add(events.TypeUserPrompt, events.UserPromptData{Host: "claude-code", SHA256: "sha256:00", Length: 3}, hook("h1"))
	l.add(events.TypeDraftCreate, events.DraftData{Resource: "rule", ID: "tmp-rule-00000000000e", Path: "go/E.md", Body: "e"})
	l.refer(ruleA, []string{"Steps/1"}, inSession("h1"))
	l.add(events.TypeStopBlocked, events.StopBlockedData{Host: "claude-code", Blocks: 1, Limit: 2}, hook("h1"))
	l.add(events.TypeSetup, events.SetupData{}, inSession("invented"))
	l.add(events.TypeAgentReport, events.AgentReportData{Summary: "x"}, inSession("h1"))
	return l.all()
}

// allModels renders every read model of s, compliance included.
func allModels(tb testing.TB, s *projections.Store) string {
	tb.Helper()
	return renderModels(tb, s) + jsonOf(s.Compliance())
}

// ownersOf returns the registered prefixes key starts with.
func ownersOf(key string, prefixes []string) []string {
	var out []string
	for _, p := range prefixes {
		if strings.HasPrefix(key, p) {
			out = append(out, p)
		}
	}
	return out
}

func TestRegistry(t *testing.T) {
	prefixes := projections.ModelPrefixes()

	t.Run("PrefixesDisjoint", func(t *testing.T) {
		if len(prefixes) == 0 {
			t.Fatal("got no read models")
		}
		all := append([]string{projections.MetaPrefix}, prefixes...)
		for i, p := range all {
			if !strings.HasSuffix(p, "/") || len(p) < 2 {
				t.Errorf("prefix %q: want a name ending in '/'", p)
			}
			for j, q := range all {
				if i != j && strings.HasPrefix(q, p) {
					t.Errorf("prefix %q starts with prefix %q: a row would belong to both", q, p)
				}
			}
		}
	})

	t.Run("EveryRowHasOneModel", func(t *testing.T) {
		s := openMem(t)
		apply(t, s, everyModel(t)...)
		keys, err := s.RawKeys()
		if err != nil {
			t.Fatal(err)
		}
		rows := make(map[string]int)
		for _, k := range keys {
			owners := ownersOf(k, prefixes)
			meta := strings.HasPrefix(k, projections.MetaPrefix)
			if len(owners) > 1 || len(owners) == 1 && meta {
				t.Errorf("row %q: got owners %v (meta %v), want exactly one", k, owners, meta)
			}
			if len(owners) == 0 && !meta {
				t.Errorf("row %q belongs to no read model", k)
			}
			for _, p := range owners {
				rows[p]++
			}
		}
		for _, p := range prefixes {
			if rows[p] == 0 {
				t.Errorf("model %q: got no rows, want the ledger to give it some", p)
			}
		}
	})

	// The overview in keys.go is the one screen that shows the layout: it
	// must name every model's rows.
	t.Run("KeyLayoutDocumented", func(t *testing.T) {
		src, err := os.ReadFile("keys.go")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range append([]string{projections.MetaPrefix}, prefixes...) {
			if !strings.Contains(string(src), "//\t"+p) {
				t.Errorf("keys.go: got no line for the rows under %q in the key layout", p)
			}
		}
	})

	// Every model loads what it wrote: a store closed and reopened at any
	// point of the ledger goes on to the same read models and the same
	// bytes as one that never closed.
	t.Run("ReopenAnywhere", func(t *testing.T) {
		evs := everyModel(t)
		whole := openMem(t)
		apply(t, whole, evs...)
		want, wantModels := digest(t, whole), allModels(t, whole)
		for _, cut := range []int{1, len(evs) / 3, len(evs) - 6, len(evs) - 2} {
			fs := vfs.NewMem()
			s := openAt(t, fs, "/db", projections.Options{})
			apply(t, s, evs[:cut]...)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = openAt(t, fs, "/db", projections.Options{})
			apply(t, s, evs[cut:]...)
			if got := digest(t, s); got != want {
				t.Errorf("reopened after %d events: got digest %s, want %s", cut, got, want)
			}
			if got := allModels(t, s); got != wantModels {
				t.Errorf("reopened after %d events: got read models\n%s\nwant\n%s", cut, got, wantModels)
			}
		}
	})

	t.Run("DigestRefusesRowOfNoModel", func(t *testing.T) {
		s := openMem(t)
		apply(t, s, mixed(newLedger(t))...)
		if err := s.SetRaw("zz/stray", "x"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Digest(); !errors.Is(err, projections.ErrCorrupt) || !strings.Contains(err.Error(), "zz/stray") {
			t.Errorf("got %v, want ErrCorrupt naming the row", err)
		}
	})
}
