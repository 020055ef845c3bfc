package hub

import (
	"maps"
	"slices"
	"sync"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/projections/engine"
)

// keyed is the state of a model of the hub ledger's read side: values by
// key, read by the hub's handlers while the ledger's follower applies,
// with the keys touched since the model's last Write. Load fills what
// adopt then makes the state at once, so that no reader sees a model half
// loaded.
type keyed[V any] struct {
	mu      sync.Mutex
	m       map[string]V
	loading map[string]V
	touched map[string]bool
}

func newKeyed[V any]() *keyed[V] {
	return &keyed[V]{m: map[string]V{}, loading: map[string]V{}, touched: map[string]bool{}}
}

// get returns the value of key.
func (k *keyed[V]) get(key string) (V, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.m[key]
	return v, ok
}

// update sets key to what next returns for its value now, unless next
// says to keep it; it reports whether it set it.
func (k *keyed[V]) update(key string, next func(old V, ok bool) (V, bool)) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	old, ok := k.m[key]
	v, set := next(old, ok)
	if set {
		k.m[key] = v
		k.touched[key] = true
	}
	return set
}

// load keeps a value read back from the store for adopt.
func (k *keyed[V]) load(key string, v V) { k.loading[key] = v }

// adopt makes what load kept the state, and forgets the touched keys.
func (k *keyed[V]) adopt() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.m, k.loading = k.loading, map[string]V{}
	clear(k.touched)
}

// write writes the row prefix+key of every touched key, its value
// encoded by enc, in key order, and forgets the touched keys.
func (k *keyed[V]) write(w *engine.RowWriter, prefix string, enc func(V) []byte) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, key := range slices.Sorted(maps.Keys(k.touched)) {
		w.Set([]byte(prefix+key), enc(k.m[key]))
	}
	clear(k.touched)
}

// ledgerSideRows are the store's rows of the hub ledger's read side
// alone (under prefixLedger), for its registry's Load: every iterator is
// bounded to them, whatever the options it is asked for with.
type ledgerSideRows struct{ *pebble.DB }

func (r ledgerSideRows) NewIter(*pebble.IterOptions) (*pebble.Iterator, error) {
	return r.DB.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixLedger), UpperBound: engine.PrefixEnd(prefixLedger)})
}
