package enginetest

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/projections/engine"
)

// words counts words by their first letter (in memory, loaded at open)
// and keeps every word seen on disk only: a model that keeps the
// contract. Its flaw, when set, breaks one clause of it.
type words struct {
	flaw    string
	counts  map[string]uint64
	touched map[string]bool
	batch   int // items since the last Write
	rows    *engine.DiskRows
}

func (m *words) Prefixes() []string { return []string{"w/"} }
func (m *words) DiskOnly() []string { return []string{"seen/"} }

func (m *words) Load(k string, v []byte) error {
	if len(v) != 8 {
		return fmt.Errorf("%w: %q", engine.ErrUnknownRow, k)
	}
	if m.flaw != "forgets" {
		m.counts[strings.TrimPrefix(k, "w/")] = binary.BigEndian.Uint64(v)
	}
	return nil
}

func (m *words) Apply(w string) {
	m.counts[w[:1]]++
	m.touched[w[:1]] = true
	m.batch++
	m.rows.Set([]byte("seen/"+w), nil)
}

func (m *words) Write(w *engine.RowWriter) {
	for k := range m.touched {
		v := m.counts[k]
		switch m.flaw {
		case "batch":
			v = uint64(m.batch)
		case "clock":
			ticks++
			v = ticks
		}
		w.Set([]byte("w/"+k), binary.BigEndian.AppendUint64(nil, v))
		if m.flaw == "stray" {
			w.Set([]byte("other/"+k), nil)
		}
	}
	clear(m.touched)
	m.batch = 0
	m.rows.Write(w)
}

// ticks is the clock of the flaw "clock": what a model must not read.
var ticks uint64

// fixture is the fixture of a words model with flaw over a few words (of
// two, under the same prefixes, when flaw is "overlap"). Its store takes
// any row of no model as a meta row, so that a stray row is found by the
// check for it, not by the load.
func fixture(flaw string) Fixture[string] {
	return Fixture[string]{
		Open: func(tb testing.TB, db *pebble.DB) []engine.Model[string] {
			reg := &engine.Registry[string]{}
			n := 1
			if flaw == "overlap" {
				n = 2
			}
			for range n {
				engine.Register(reg, &words{flaw: flaw, counts: map[string]uint64{}, touched: map[string]bool{}, rows: engine.NewDiskRows(db)})
			}
			if err := reg.Load(db, func(string, []byte) error { return nil }); err != nil {
				tb.Fatal(err)
			}
			return reg.Models()
		},
		Meta: []string{"meta/"},
		Answer: func(_ testing.TB, _ *pebble.DB, models []engine.Model[string]) string {
			return fmt.Sprint(models[0].(*words).counts)
		},
		Cases: []Case[string]{{Name: "words", Items: func(testing.TB) []string {
			return strings.Fields("apple avocado banana blueberry cherry apricot beet")
		}}},
	}
}

func TestRun_ContractKept(t *testing.T) {
	Run(t, fixture(""))
}

// TestChecks_FindEachFlaw checks that each check finds the flaw it is
// there for, and that the sound model passes them all.
func TestChecks_FindEachFlaw(t *testing.T) {
	checks := map[string]func(testing.TB, *subject[string], string) error{
		"RowsUnderPrefixes": testRowsUnderPrefixes[string],
		"BatchInvariance":   testBatches[string],
		"WriteThenLoad":     testWriteThenLoad[string],
		"FailedCommit":      testFailedCommit[string],
		"Deterministic":     testDeterministic[string],
	}
	for _, c := range []struct {
		flaw  string
		finds []string // the checks that must fail
	}{
		{"", nil},
		{"stray", []string{"RowsUnderPrefixes"}},
		{"batch", []string{"BatchInvariance", "WriteThenLoad", "FailedCommit"}},
		{"clock", []string{"Deterministic", "BatchInvariance", "WriteThenLoad", "FailedCommit"}},
		{"forgets", []string{"WriteThenLoad", "FailedCommit"}},
	} {
		t.Run("flaw="+c.flaw, func(t *testing.T) {
			f := fixture(c.flaw)
			s := &subject[string]{f: f, c: f.Cases[0], n: 1}
			ref := s.oneBatch(t)
			for name, check := range checks {
				err := check(t, s, ref)
				want := strings.Contains(strings.Join(c.finds, " "), name)
				if (err != nil) != want {
					t.Errorf("%s: got %v, want an error: %v", name, err, want)
				}
			}
		})
	}
}

func TestPrefixes_FindOverlap(t *testing.T) {
	if errs := testPrefixes(t, fixture("")); len(errs) != 0 {
		t.Fatalf("a sound model: %v", errs)
	}
	if errs := testPrefixes(t, fixture("overlap")); len(errs) == 0 {
		t.Fatal("two models under w/: no overlap found")
	}
	f := fixture("")
	f.Meta = []string{"w/meta/"}
	if errs := testPrefixes(t, f); len(errs) == 0 {
		t.Fatal("a model prefix over the meta rows' prefix: no overlap found")
	}
}
