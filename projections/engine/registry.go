package engine

import (
	"fmt"
	"io"
	"strings"

	"github.com/cockroachdb/pebble/v2"
)

// Registry is the list of a store's models: it fixes the order in which
// each item is handed to them and their rows are written (neither changes
// what the store holds, as no model reads another), and finds a row's
// model.
type Registry[T any] struct {
	models []Model[T]
	owners []owner[T] // every prefix of every model, with its model
}

type owner[T any] struct {
	prefix   string
	m        Model[T]
	diskOnly bool // the rows under prefix are not loaded (m is nil for another registry's rows)
}

// Register adds m to r and returns it, so that a store keeps the typed
// model in a field: st.usage = engine.Register(&st.models, newUsage()).
func Register[T any, M Model[T]](r *Registry[T], m M) M {
	r.models = append(r.models, m)
	for _, p := range m.Prefixes() {
		r.owners = append(r.owners, owner[T]{prefix: p, m: m})
	}
	if d, ok := any(m).(DiskOnly); ok {
		for _, p := range d.DiskOnly() {
			r.owners = append(r.owners, owner[T]{prefix: p, m: m, diskOnly: true})
		}
	}
	return m
}

// Foreign marks the rows under prefix as another registry's, kept in the
// same store (the hub keeps its ledger's read side beside the aggregate's
// models): Load skips them, and no model or meta row of r may lie under
// prefix.
func (r *Registry[T]) Foreign(prefix string) {
	r.owners = append(r.owners, owner[T]{prefix: prefix, diskOnly: true})
}

// Models returns the models in registry order.
func (r *Registry[T]) Models() []Model[T] { return r.models }

// Owner returns the model whose prefix key starts with, nil for the meta
// rows and for rows of no model.
func (r *Registry[T]) Owner(key string) Model[T] {
	for _, o := range r.owners {
		if strings.HasPrefix(key, o.prefix) {
			return o.m
		}
	}
	return nil
}

// skip returns the prefix of key's rows that are kept on disk only, if
// key is one of them.
func (r *Registry[T]) skip(key string) (string, bool) {
	for _, o := range r.owners {
		if o.diskOnly && strings.HasPrefix(key, o.prefix) {
			return o.prefix, true
		}
	}
	return "", false
}

// Apply hands item to every model.
func (r *Registry[T]) Apply(item T) {
	for _, m := range r.models {
		m.Apply(item)
	}
}

// Write has every model write the rows it touched into w.
func (r *Registry[T]) Write(w *RowWriter) {
	for _, m := range r.models {
		m.Write(w)
	}
}

// Load reads every row of db but those a model keeps on disk only, and
// hands it to its model, or to meta for a row of no model. It fails on a
// row it cannot read or that its model (or meta) cannot decode.
func (r *Registry[T]) Load(db pebble.Reader, meta func(key string, value []byte) error) error {
	it, err := db.NewIter(nil)
	if err != nil {
		return err
	}
	defer it.Close()
	for ok := it.First(); ok; {
		k := string(it.Key())
		if p, skip := r.skip(k); skip {
			ok = it.SeekGE(PrefixEnd(p))
			continue
		}
		m := r.Owner(k)
		v, err := it.ValueAndErr()
		if err != nil {
			return fmt.Errorf("read %q: %w", k, err)
		}
		if m != nil {
			err = m.Load(k, v)
		} else {
			err = meta(k, v)
		}
		if err != nil {
			return fmt.Errorf("decode %q: %w", k, err)
		}
		ok = it.Next()
	}
	return it.Error()
}

// PrefixEnd returns the first key after every key that starts with prefix.
func PrefixEnd(prefix string) []byte {
	end := []byte(prefix)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// Commit writes, in one batch of db committed without sync, the rows the
// models of r touched and what meta writes (the store's meta rows, the
// checkpoint among them), so that after a crash rows and checkpoint roll
// back together. With sorted, the rows go into the batch in key order.
// check, if set, is asked before the commit (fault injection).
func (r *Registry[T]) Commit(db *pebble.DB, sorted *SortedRows, meta func(w *RowWriter), check func() error) error {
	b := db.NewBatch()
	defer b.Close()
	w := NewRowWriter(b)
	if sorted != nil {
		w = NewSortedWriter(sorted)
	}
	r.Write(w)
	meta(w)
	err := w.Err()
	switch {
	case sorted == nil:
	case err == nil:
		err = sorted.WriteTo(b)
	default:
		sorted.Reset()
	}
	if err == nil && check != nil {
		err = check()
	}
	if err == nil {
		err = b.Commit(pebble.NoSync)
	}
	return err
}

// Dump writes every row of r to w, one line each ("key"=hex value), in key
// order: two stores hold the same rows when their dumps are equal.
func Dump(r pebble.Reader, w io.Writer) error {
	it, err := r.NewIter(nil)
	if err != nil {
		return err
	}
	defer it.Close()
	for it.First(); it.Valid(); it.Next() {
		if _, err := fmt.Fprintf(w, "%q=%x\n", it.Key(), it.Value()); err != nil {
			return err
		}
	}
	return it.Error()
}
