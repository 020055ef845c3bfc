package enginetest

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/projections/engine"
)

// subject is one model of a fixture (the i-th of the n that Open
// returns) and the case it folds.
type subject[T any] struct {
	f    Fixture[T]
	c    Case[T]
	i, n int
}

// open opens the store's models over db and returns them with a registry
// that holds the subject's model alone.
func (s *subject[T]) open(tb testing.TB, db *pebble.DB) ([]engine.Model[T], *engine.Registry[T]) {
	tb.Helper()
	models := s.f.Open(tb, db)
	if len(models) != s.n {
		tb.Fatalf("Open returned %d models, then %d", s.n, len(models))
	}
	reg := &engine.Registry[T]{}
	engine.Register(reg, models[s.i])
	return models, reg
}

func (s *subject[T]) items(tb testing.TB) []T {
	tb.Helper()
	items := s.c.Items(tb)
	if len(items) == 0 {
		tb.Fatalf("case %s has no items", s.c.Name)
	}
	return items
}

func (s *subject[T]) applyAll(reg *engine.Registry[T], items []T) {
	for _, it := range items {
		reg.Apply(it)
	}
}

// answer renders what models answer, "" without Fixture.Answer.
func (s *subject[T]) answer(tb testing.TB, db *pebble.DB, models []engine.Model[T]) string {
	tb.Helper()
	if s.f.Answer == nil {
		return ""
	}
	return s.f.Answer(tb, db, models)
}

// oneBatch applies every item in one batch to a new store and returns its
// rows (Dump).
func (s *subject[T]) oneBatch(tb testing.TB) string {
	tb.Helper()
	db, _ := s.foldOnce(tb)
	return dump(tb, db)
}

// foldOnce applies every item in one batch to a new store and returns
// its database and the subject's registry.
func (s *subject[T]) foldOnce(tb testing.TB) (*pebble.DB, *engine.Registry[T]) {
	tb.Helper()
	db := memDB(tb)
	_, reg := s.open(tb, db)
	s.applyAll(reg, s.items(tb))
	mustCommit(tb, db, reg, nil)
	return db, reg
}
