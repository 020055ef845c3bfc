package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// item is what the test's models apply: a word at a sequence.
type item struct {
	seq  uint64
	word string
}

// lengths counts the words by length in memory (loaded at open), and
// keeps the words themselves on disk only.
type lengths struct {
	n       map[int]uint64
	touched map[int]bool
}

func (m *lengths) Prefixes() []string { return []string{"len/"} }
func (m *lengths) DiskOnly() []string { return []string{"len/words/"} }
func (m *lengths) Load(k string, v []byte) error {
	var l int
	if _, err := fmt.Sscanf(k, "len/%04d", &l); err != nil || len(v) != 8 {
		return fmt.Errorf("%w: %q", ErrUnknownRow, k)
	}
	m.n[l] = binary.BigEndian.Uint64(v)
	return nil
}
func (m *lengths) Apply(it item) { m.n[len(it.word)]++; m.touched[len(it.word)] = true }
func (m *lengths) Write(w *RowWriter) {
	for l := range m.touched {
		w.Set(fmt.Appendf(nil, "len/%04d", l), binary.BigEndian.AppendUint64(nil, m.n[l]))
		w.Set([]byte("len/words/"+fmt.Sprint(l)), []byte("on disk only"))
	}
	clear(m.touched)
}

// firsts counts words by their first letter on disk only (DiskRows).
type firsts struct{ rows *DiskRows }

func (m *firsts) Prefixes() []string { return []string{"first/", "seen/"} }
func (m *firsts) DiskOnly() []string { return m.Prefixes() }
func (m *firsts) Load(k string, _ []byte) error {
	return fmt.Errorf("%w: %q", ErrUnknownRow, k)
}
func (m *firsts) Apply(it item) {
	k := []byte("first/" + it.word[:1])
	var n uint64
	if v, ok := m.rows.Get(k); ok {
		n = binary.BigEndian.Uint64(v)
	}
	m.rows.Set(k, binary.BigEndian.AppendUint64(nil, n+1))
	m.rows.Set([]byte("seen/"+it.word), nil)
}
func (m *firsts) Write(w *RowWriter) { m.rows.Write(w) }

// store is the test's models (runState, runner_test.go) with their db.
type store struct {
	db *pebble.DB
	*runState
}

func open(t *testing.T, db *pebble.DB) *store {
	t.Helper()
	st, err := loadRunState(db)
	if err != nil {
		t.Fatal(err)
	}
	return &store{db: db, runState: st}
}

func (s *store) apply(fault error, its ...item) error {
	for _, it := range its {
		s.reg.Apply(it)
	}
	last := its[len(its)-1].seq
	return s.reg.Commit(s.db, nil, func(w *RowWriter) { w.Set([]byte("cp"), binary.BigEndian.AppendUint64(nil, last)) },
		func() error { return fault })
}

func dump(t *testing.T, db *pebble.DB) string {
	t.Helper()
	var b strings.Builder
	if err := Dump(db, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRegistry_BatchesDoNotMatter checks the engine's promise: the rows of
// models that keep the contract, committed with the checkpoint, are the
// same whatever the batches the items came in, and a store opened again
// loads what it needs (not the rows kept on disk only) and goes on.
func TestRegistry_BatchesDoNotMatter(t *testing.T) {
	words := strings.Fields("alpha beta gamma delta be al gam epsilon b")
	var its []item
	for i, w := range words {
		its = append(its, item{uint64(i + 1), w})
	}
	one := memDB(t)
	if err := open(t, one).apply(nil, its...); err != nil {
		t.Fatal(err)
	}
	many := memDB(t)
	for i := 0; i < len(its); i += 2 {
		s := open(t, many) // reopened for every batch
		if s.checkpoint != uint64(i) {
			t.Fatalf("checkpoint %d after %d items, want %d", s.checkpoint, i, i)
		}
		if err := s.apply(nil, its[i:min(i+2, len(its))]...); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := dump(t, many), dump(t, one); got != want {
		t.Fatalf("rows applied in batches of 2:\n%s\nwant (one batch):\n%s", got, want)
	}
	if s := open(t, many); s.lengths.n[5] != 3 || s.checkpoint != uint64(len(its)) {
		t.Fatalf("reopened: %d words of 5 letters at checkpoint %d, want 3 at %d", s.lengths.n[5], s.checkpoint, len(its))
	}
}

// TestRegistry_FailedCommitKeepsNothing checks that a commit that fails
// writes neither rows nor checkpoint, and that a model on disk only
// (DiskRows) has forgotten what it wrote: the batch applied again counts
// once.
func TestRegistry_FailedCommitKeepsNothing(t *testing.T) {
	db := memDB(t)
	s := open(t, db)
	if err := s.apply(nil, item{1, "alpha"}); err != nil {
		t.Fatal(err)
	}
	before := dump(t, db)
	fault := errors.New("disk full")
	if err := s.apply(fault, item{2, "apple"}); !errors.Is(err, fault) {
		t.Fatalf("commit = %v, want %v", err, fault)
	}
	if got := dump(t, db); got != before {
		t.Fatalf("a failed commit changed the store:\n%s\nwant:\n%s", got, before)
	}
	s = open(t, db)
	if err := s.apply(nil, item{2, "apple"}); err != nil {
		t.Fatal(err)
	}
	v, closer, err := db.Get([]byte("first/a"))
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	if n := binary.BigEndian.Uint64(v); n != 2 {
		t.Fatalf("words starting with a: %d, want 2", n)
	}
}

// TestRegistry_ForeignRowsSkipped checks Foreign: rows another registry
// keeps in the same store reach neither a model's Load nor meta, which
// would refuse them as unknown.
func TestRegistry_ForeignRowsSkipped(t *testing.T) {
	db, err := pebble.Open(t.TempDir(), &pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, k := range []string{"len/0003", "other/a", "other/b", "zz"} {
		if err := db.Set([]byte(k), binary.BigEndian.AppendUint64(nil, 2), pebble.Sync); err != nil {
			t.Fatal(err)
		}
	}
	load := func(foreign bool) ([]string, error) {
		var r Registry[item]
		m := Register(&r, &lengths{n: map[int]uint64{}, touched: map[int]bool{}})
		if foreign {
			r.Foreign("other/")
		}
		var meta []string
		err := r.Load(db, func(k string, _ []byte) error { meta = append(meta, k); return nil })
		if err == nil && m.n[3] != 2 {
			t.Fatalf("model loaded %v, want length 3 counted 2", m.n)
		}
		return meta, err
	}
	if meta, err := load(false); err != nil || fmt.Sprint(meta) != "[other/a other/b zz]" {
		t.Fatalf("without Foreign: meta got %v, %v; want the other registry's rows handed to meta", meta, err)
	}
	if meta, err := load(true); err != nil || fmt.Sprint(meta) != "[zz]" {
		t.Fatalf("with Foreign: meta got %v, %v; want only zz", meta, err)
	}
}
