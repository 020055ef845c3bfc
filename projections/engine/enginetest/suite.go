package enginetest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/projections/engine"
)

// Run runs the conformance suite on the models of f: their prefixes, then
// every case through every model alone, in a registry of its own (a model
// reads no other model's rows, so alone it must fold as it does among the
// others). For each model and case it checks that
//
//   - Apply is deterministic: the same items twice give the same rows;
//   - its rows lie only under its prefixes;
//   - batches do not matter: the items in batches of 1, 2 and 3, into a
//     batch or through engine.SortedRows, give the rows of one batch;
//   - write then load gives the same model: loaded (Open) from the rows
//     it wrote after each item, the model answers what it answered
//     (Fixture.Answer) and goes on to write the same rows;
//   - a failed commit keeps nothing: a batch whose commit fails (through
//     the check of engine.Registry.Commit) leaves the rows as they were,
//     the model loaded again answers as before it, and the batch applied
//     again gives the rows of no failure.
//
// Last, every model must have written a row in some case (when every
// case ran), so that no check passes for want of items.
func Run[T any](t *testing.T, f Fixture[T]) {
	t.Run("PrefixesDisjoint", func(t *testing.T) {
		for _, err := range testPrefixes(t, f) {
			t.Error(err)
		}
	})
	models := f.Open(t, memDB(t))
	// ran counts the cases each model ran (a -run pattern may leave some
	// out), wrote whether it wrote a row in one of them.
	ran, wrote := make([]int, len(models)), make([]bool, len(models))
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			for i, m := range models {
				t.Run(modelName(m), func(t *testing.T) {
					s := &subject[T]{f: f, c: c, i: i, n: len(models)}
					ref := s.oneBatch(t)
					ran[i]++
					wrote[i] = wrote[i] || ref != ""
					for _, check := range []struct {
						name string
						run  func(testing.TB, *subject[T], string) error
					}{
						{"Deterministic", testDeterministic[T]},
						{"RowsUnderPrefixes", testRowsUnderPrefixes[T]},
						{"BatchInvariance", testBatches[T]},
						{"WriteThenLoad", testWriteThenLoad[T]},
						{"FailedCommit", testFailedCommit[T]},
					} {
						t.Run(check.name, func(t *testing.T) {
							if err := check.run(t, s, ref); err != nil {
								t.Error(err)
							}
						})
					}
				})
			}
		})
	}
	for i, m := range models {
		if ran[i] == len(f.Cases) && !wrote[i] {
			t.Errorf("model %s wrote no row in any case: add a case with items it folds", modelName(m))
		}
	}
}

// testPrefixes checks that every model has prefixes and that none of
// them, nor the store's meta prefixes, is a prefix of another model's
// (a model's DiskOnly prefixes count among its own).
func testPrefixes[T any](tb testing.TB, f Fixture[T]) []error {
	type owned struct {
		prefix string
		owner  string
	}
	var all []owned
	for _, p := range f.Meta {
		all = append(all, owned{p, "the store's meta rows"})
	}
	var errs []error
	for i, m := range f.Open(tb, memDB(tb)) {
		name := fmt.Sprintf("%s (#%d)", modelName(m), i+1)
		if len(m.Prefixes()) == 0 {
			errs = append(errs, fmt.Errorf("model %s has no prefix", name))
		}
		for _, p := range prefixesOf(m) {
			if p == "" {
				errs = append(errs, fmt.Errorf("model %s has an empty prefix, which holds every row", name))
			}
			all = append(all, owned{p, "model " + name})
		}
	}
	for i, a := range all {
		for _, b := range all[i+1:] {
			if a.owner != b.owner && (strings.HasPrefix(a.prefix, b.prefix) || strings.HasPrefix(b.prefix, a.prefix)) {
				errs = append(errs, fmt.Errorf("prefix %q of %s and prefix %q of %s overlap: a row under both would have two owners", a.prefix, a.owner, b.prefix, b.owner))
			}
		}
	}
	return errs
}

func testDeterministic[T any](tb testing.TB, s *subject[T], ref string) error {
	if again := s.oneBatch(tb); again != ref {
		return fmt.Errorf("the same items applied again give other rows:\n%s", diff(again, ref))
	}
	return nil
}

func testRowsUnderPrefixes[T any](tb testing.TB, s *subject[T], _ string) error {
	db, reg := s.foldOnce(tb)
	prefixes := prefixesOf(reg.Models()[0])
	for _, k := range keys(tb, db) {
		if !hasAnyPrefix(k, prefixes) {
			return fmt.Errorf("row %q is under none of the model's prefixes %q", k, prefixes)
		}
	}
	return nil
}

func testBatches[T any](tb testing.TB, s *subject[T], ref string) error {
	for _, size := range []int{1, 2, 3} {
		for _, sorted := range []bool{false, true} {
			db := memDB(tb)
			_, reg := s.open(tb, db)
			var rows *engine.SortedRows
			if sorted {
				rows = &engine.SortedRows{}
			}
			for _, batch := range batches(s.items(tb), size) {
				s.applyAll(reg, batch)
				mustCommit(tb, db, reg, rows)
			}
			if got := dump(tb, db); got != ref {
				return fmt.Errorf("batches of %d (sorted rows: %v) give other rows than one batch:\n%s", size, sorted, diff(got, ref))
			}
		}
	}
	return nil
}

func testWriteThenLoad[T any](tb testing.TB, s *subject[T], ref string) error {
	db := memDB(tb)
	for n, item := range s.items(tb) {
		applied, reg := s.open(tb, db)
		reg.Apply(item)
		mustCommit(tb, db, reg, nil)
		loaded, _ := s.open(tb, db)
		if got, want := s.answer(tb, db, loaded), s.answer(tb, db, applied); got != want {
			return fmt.Errorf("after item %d, the model loaded from its rows answers\n%s\nwhere the model that wrote them answered\n%s", n+1, got, want)
		}
	}
	if got := dump(tb, db); got != ref {
		return fmt.Errorf("loaded from its rows before every item, the model writes other rows than in one batch:\n%s", diff(got, ref))
	}
	return nil
}

// errFault is the error of the commits the suite fails.
var errFault = errors.New("enginetest: commit failed on purpose")

func testFailedCommit[T any](tb testing.TB, s *subject[T], ref string) error {
	db := memDB(tb)
	models, reg := s.open(tb, db)
	for n, batch := range batches(s.items(tb), 3) {
		rows, answer := dump(tb, db), s.answer(tb, db, models)
		s.applyAll(reg, batch)
		if err := commit(db, reg, nil, func() error { return errFault }); !errors.Is(err, errFault) {
			return fmt.Errorf("batch %d: commit = %v, want the check's error", n+1, err)
		}
		if got := dump(tb, db); got != rows {
			return fmt.Errorf("batch %d: a failed commit changed the rows:\n%s", n+1, diff(got, rows))
		}
		models, reg = s.open(tb, db)
		if got := s.answer(tb, db, models); got != answer {
			return fmt.Errorf("batch %d: loaded again after a failed commit, the model answers\n%s\nwhere before the batch it answered\n%s", n+1, got, answer)
		}
		s.applyAll(reg, batch)
		mustCommit(tb, db, reg, nil)
	}
	if got := dump(tb, db); got != ref {
		return fmt.Errorf("with every batch failed once, loaded again and applied again, the rows differ from those of no failure:\n%s", diff(got, ref))
	}
	return nil
}

// batches splits items into batches of size.
func batches[T any](items []T, size int) [][]T {
	var out [][]T
	for i := 0; i < len(items); i += size {
		out = append(out, items[i:min(i+size, len(items))])
	}
	return out
}

// prefixesOf returns the prefixes a model owns: its Prefixes and
// DiskOnly's.
func prefixesOf[T any](m engine.Model[T]) []string {
	out := m.Prefixes()
	if d, ok := m.(engine.DiskOnly); ok {
		out = append(out[:len(out):len(out)], d.DiskOnly()...)
	}
	return out
}

func hasAnyPrefix(k string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// modelName names a model by its type.
func modelName(m any) string {
	name := fmt.Sprintf("%T", m)
	return name[strings.LastIndex(name, ".")+1:]
}
