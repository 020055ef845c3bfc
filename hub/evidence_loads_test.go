package hub

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/evidence"
)

// TestProjector_LoadsAgreeRandomly feeds random sequences of a
// workspace's loads, publishes, reids and edits to the hub, reopening
// its projector now and then, and holds the hub's record of each
// session's loads against the test's own account of what the sessions
// received under each rule's path: the evidence says loaded when a
// session received any version, the record says what the workspace's
// gate would (evidence.Loads.Counts: the version in force, or one with
// its constraints), and no session names a retired id.
func TestProjector_LoadsAgreeRandomly(t *testing.T) {
	paths := []string{"api/A.md", "web/B.md"}
	sessions := []string{"s1", "s2", "s3"}
	day := "2026-11-16"
	now, _ := time.Parse(time.DateOnly, "2026-11-20")
	ws := nodeA.Workspace
	for seed := range uint64(12) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 8))
			pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
			f := newFeeder(t)
			p := f.open()
			t.Cleanup(func() { p.close() })
			n := 0
			ids, cur := map[string]string{}, map[string]evidence.Version{}
			var retired []string
			received := map[string]map[string][]evidence.Version{} // session -> path -> versions
			publish := func(path string) events.Event {
				n++
				cur[path] = evidence.Version{Hash: fmt.Sprintf("sha256:b%d", n), Constraints: pick([]string{"sha256:c1", "sha256:c2"})}
				return event(t, ws, events.TypeCatalogPublish, day, events.PublishData{ID: ids[path], Kind: "rule", Path: path, Body: "# A\n\nx\n\n## C\n\n- one\n"})
			}
			newID := func(path string) {
				n++
				ids[path] = fmt.Sprintf("p-%d", n)
			}
			for _, path := range paths {
				newID(path)
				f.feed(p, publish(path))
			}
			for range 40 {
				path, session := pick(paths), pick(sessions)
				switch k := rng.IntN(10); {
				case k < 5:
					v, delivered := cur[path], rng.IntN(4) > 0
					ev := event(t, ws, events.TypeLoad, day, events.LoadData{Items: []events.LoadedItem{{ID: ids[path], Hash: v.Hash, ConstraintsHash: v.Constraints, Changed: delivered}}})
					ev.SessionID = session
					f.feed(p, ev)
					if delivered {
						if received[session] == nil {
							received[session] = map[string][]evidence.Version{}
						}
						received[session][path] = append(received[session][path], v)
					}
				case k < 7:
					f.feed(p, publish(path))
				case k < 9:
					from := ids[path]
					retired = append(retired, from)
					newID(path)
					f.feed(p, publish(path), event(t, ws, events.TypeCatalogReid, day, events.ReidData{From: from, To: ids[path], Kind: "rule", Path: path}))
				default:
					ev := event(t, ws, events.TypeFileEdit, day, events.FileEditData{Paths: []string{"x.go"}, Rules: []string{ids[path]}})
					ev.SessionID = session
					f.feed(p, ev)
				}
				if rng.IntN(8) == 0 {
					p.close()
					p = f.open()
				}
			}

			st, err := p.stats(Query{Days: 30, Now: now, Period: "daily"})
			if err != nil {
				t.Fatal(err)
			}
			loaded := map[string]map[string]bool{}
			for _, s := range st.Evidence.Sessions {
				loaded[s.ID] = map[string]bool{}
				for _, r := range s.Rules {
					loaded[s.ID][r.ID] = r.Loaded
					if slices.Contains(retired, r.ID) {
						t.Errorf("%s names the retired id %s", s.ID, r.ID)
					}
				}
			}
			aliases, err := readAliases(p.db)
			if err != nil {
				t.Fatal(err)
			}
			for _, session := range sessions {
				var row evidenceRow
				if v, closer, err := p.db.Get(keyEvidence(nodeA.Team, ws, nodeA.ID, session)); err == nil {
					err = json.Unmarshal(v, &row)
					closer.Close()
					if err != nil {
						t.Fatal(err)
					}
				}
				row.Follow(func(id string) string { return aliases.of(nodeA.Team, ws, id) })
				for _, path := range paths {
					id, got := ids[path], received[session][path]
					if want := len(got) > 0; loaded[session][id] != want {
						t.Errorf("%s, %s (%s): the evidence says loaded %t, want %t (received %+v)", session, path, id, loaded[session][id], want, got)
					}
					counts := slices.ContainsFunc(got, func(v evidence.Version) bool {
						return v.Hash == cur[path].Hash || v.Constraints == cur[path].Constraints
					})
					if c := row.Loads.Counts(id, cur[path]); c != counts {
						t.Errorf("%s, %s (%s): the record counts the version in force %t, want %t (received %+v, in force %+v)", session, path, id, c, counts, got, cur[path])
					}
				}
			}
		})
	}
}
