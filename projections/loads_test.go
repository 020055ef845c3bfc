package projections_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// loadsWorld drives a store through loads, publishes and reids of a few
// scoped rules, and keeps its own account of what each session received:
// the versions served to it with content, under the rule's path, which a
// reid keeps while it changes the id.
type loadsWorld struct {
	tb       testing.TB
	l        *ledger
	s        *projections.Store
	ids      map[string]string // path -> the rule's id now
	retired  []string
	received map[string]map[string][]projections.Version // session -> path -> versions
	next     int
}

// The rules' paths, each scoped to its directory, and the sessions.
var (
	loadsPaths    = []string{"api/RULE.md", "web/RULE.md", "db/RULE.md"}
	loadsSessions = []string{"s1", "s2", "s3"}
)

// loadsBody is a rule at path with a title (not a constraint) and the
// text of its one constraint.
func loadsBody(path, title, rule string) string {
	dir := path[:len(path)-len("/RULE.md")]
	return fmt.Sprintf("---\npaths: [\"%s/**\"]\n---\n# %s\n\nx\n\n## Do\n\n- %s\n", dir, title, rule)
}

// inScope is a file that path's rule is in scope for.
func inScope(path string) string { return path[:len(path)-len("RULE.md")] + "x.go" }

func newLoadsWorld(tb testing.TB, s *projections.Store) *loadsWorld {
	w := &loadsWorld{tb: tb, l: newLedger(tb), s: s, ids: map[string]string{}, received: map[string]map[string][]projections.Version{}}
	for _, p := range loadsPaths {
		w.ids[p] = w.newID()
		w.publish(p, loadsBody(p, "T", "y"))
	}
	return w
}

func (w *loadsWorld) newID() string {
	w.next++
	return fmt.Sprintf("p-%032x", 0xa000+w.next)
}

func (w *loadsWorld) publish(path, body string) {
	apply(w.tb, w.s, w.l.publish(w.ids[path], content.KindRule, path, body))
}

// reid gives path's rule a new id, as the catalog does: the new id is
// published, then catalog.reid retires the old one.
func (w *loadsWorld) reid(path string) {
	from, to := w.ids[path], w.newID()
	body := mustView(w.tb, w.s, from).Body
	w.ids[path] = to
	w.retired = append(w.retired, from)
	w.publish(path, body)
	apply(w.tb, w.s, w.l.add(events.TypeCatalogReid, events.ReidData{From: from, To: to, Kind: "rule", Path: path}))
}

// load records a memload of path's rule by session: with its content
// (changed) or not, a draft's or not, successful or failed.
func (w *loadsWorld) load(session, path string, changed, draft, ok bool) {
	it := served(w.tb, w.s, w.ids[path], changed)
	it.Draft = draft
	opts := []option{inSession(session)}
	if !ok {
		opts = append(opts, failed(string(events.CodeUnknownRule)))
	}
	apply(w.tb, w.s, w.l.add(events.TypeLoad, loadOf(it), opts...))
	if changed && !draft && ok {
		if w.received[session] == nil {
			w.received[session] = map[string][]projections.Version{}
		}
		w.received[session][path] = append(w.received[session][path], projections.Version{Hash: it.Hash, Constraints: it.ConstraintsHash})
	}
}

// edit records a file edit in scope of path's rule and a ref of it: the
// evidence's other rows of the rule, which a load does not make.
func (w *loadsWorld) edit(session, path string) {
	id := w.ids[path]
	apply(w.tb, w.s,
		w.l.add(events.TypeFileEdit, events.FileEditData{Paths: []string{inScope(path)}, Rules: []string{id}}, inSession(session)),
		w.l.refer(id, []string{"Do"}, inSession(session)))
}

// agree checks that s, the world's store or one reopened or rebuilt from
// its ledger, answers "loaded" for every rule and session as the world's
// account does, in the gate and in the evidence alike: the gate lets a
// rule pass when the session received the version in force or one with
// its constraints, the evidence says loaded when it received any, so
// what the gate lets pass the evidence says is loaded, and a rule the
// evidence says is loaded the gate has versions of. No retired id is
// left in either.
func (w *loadsWorld) agree(when string, s *projections.Store) {
	w.tb.Helper()
	for _, session := range loadsSessions {
		ev, err := s.SessionEvidence(session)
		if err != nil && !errors.Is(err, projections.ErrNotFound) {
			w.tb.Fatalf("%s: evidence of %s: %v", when, session, err)
		}
		evLoaded := map[string]bool{}
		for _, r := range ev.Rules {
			evLoaded[r.ID] = r.Loaded
			if slices.Contains(w.retired, r.ID) {
				w.tb.Errorf("%s: %s: evidence names the retired id %s", when, session, r.ID)
			}
		}
		var wantIDs []string
		for _, path := range loadsPaths {
			id := w.ids[path]
			cur := projections.InForce(mustView(w.tb, s, id))
			got := w.received[session][path]
			received := len(got) > 0
			counts := slices.ContainsFunc(got, func(v projections.Version) bool {
				return v.Hash == cur.Hash || v.Constraints != "" && v.Constraints == cur.Constraints
			})
			if received {
				wantIDs = append(wantIDs, id)
			}
			gateLoaded := !slices.Contains(missing(gateOf(w.tb, s, session, inScope(path))), id)
			if gateLoaded != counts {
				w.tb.Errorf("%s: %s, %s (%s): the gate says loaded %t, want %t (received %+v, in force %+v)", when, session, path, id, gateLoaded, counts, got, cur)
			}
			if evLoaded[id] != received {
				w.tb.Errorf("%s: %s, %s (%s): the evidence says loaded %t, want %t (received %+v)", when, session, path, id, evLoaded[id], received, got)
			}
			if gateLoaded && !evLoaded[id] {
				w.tb.Errorf("%s: %s, %s (%s): the gate lets the rule pass and the evidence says it is not loaded", when, session, path, id)
			}
		}
		slices.Sort(wantIDs)
		if got := s.SessionLoaded(session); !reflect.DeepEqual(got, wantIDs) {
			w.tb.Errorf("%s: %s: the gate has versions of %q, want %q", when, session, got, wantIDs)
		}
	}
}

// reopenedAndRebuilt checks agree on the store reopened at dir on fs and
// on one rebuilt from the world's ledger.
func (w *loadsWorld) reopenedAndRebuilt(fs vfs.FS, dir string) {
	w.tb.Helper()
	live := digest(w.tb, w.s)
	if err := w.s.Close(); err != nil {
		w.tb.Fatal(err)
	}
	w.s = openAt(w.tb, fs, dir, projections.Options{})
	w.agree("reopened", w.s)
	r := rebuild(w.tb, w.l.log, vfs.NewMem(), "/re", projections.Options{})
	w.agree("rebuilt", r)
	if got := digest(w.tb, r); got != live {
		w.tb.Errorf("rebuild digest %s, live %s", got, live)
	}
}

// The gate and the evidence read one record of a session's loads: across
// reids before and after loads, a load under the old id, a new version
// of other constraints, an answer that sent nothing and a draft's, they
// agree on what every session loaded, live, reopened and rebuilt.
func TestStore_GateAndEvidenceAgreeAcrossReid(t *testing.T) {
	fs := vfs.NewMem()
	w := newLoadsWorld(t, openAt(t, fs, "/db", projections.Options{}))
	api, web := loadsPaths[0], loadsPaths[1]
	w.edit("s1", api)                    // before any load: an unloaded edit
	w.load("s1", api, true, false, true) // under the old id
	w.load("s2", api, false, false, true)
	w.load("s3", web, true, true, true)
	w.load("s3", api, true, false, false)
	w.agree("before the reid", w.s)
	w.reid(api)
	w.agree("after the reid", w.s)
	w.load("s2", api, true, false, true) // under the new id
	w.edit("s2", api)
	w.publish(api, loadsBody(api, "Other title", "y")) // the same constraints
	w.agree("after a version with the same constraints", w.s)
	w.publish(api, loadsBody(api, "T", "y, and log it"))
	w.agree("after a version with another constraint", w.s)
	w.reid(api)
	w.reid(web)
	w.load("s1", api, true, false, true)
	w.agree("after the second reid", w.s)
	w.reopenedAndRebuilt(fs, "/db")
}

// Over many random sequences of loads, publishes, reids and edits, the
// gate and the evidence agree on "loaded" for every rule of every session
// after every event, and a reopened and a rebuilt store say the same.
func TestStore_GateAndEvidenceAgreeRandomly(t *testing.T) {
	sequences, steps := 40, 30
	if testing.Short() {
		sequences = 8
	}
	for seed := range uint64(sequences) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 31))
			fs := vfs.NewMem()
			w := newLoadsWorld(t, openAt(t, fs, "/db", projections.Options{}))
			pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
			for range steps {
				path := pick(loadsPaths)
				switch n := rng.IntN(10); {
				case n < 5:
					w.load(pick(loadsSessions), path, rng.IntN(4) > 0, rng.IntN(8) == 0, rng.IntN(8) > 0)
				case n < 7:
					w.publish(path, loadsBody(path, pick([]string{"T", "U"}), pick([]string{"y", "z"})))
				case n < 9:
					w.reid(path)
				default:
					w.edit(pick(loadsSessions), path)
				}
				w.agree("live", w.s)
				if t.Failed() {
					t.FailNow()
				}
			}
			w.reopenedAndRebuilt(fs, "/db")
		})
	}
}
