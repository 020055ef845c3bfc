package projections

import (
	"cmp"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/content"
)

// inventory is the set of published objects in listing order. It is built
// when List or Published first needs it after the catalog changed, and
// never modified.
type inventory struct {
	objects []*object // sorted by namespace, path, id
}

// inventory returns the current inventory. The caller holds Store.mu
// (read or write); readers may build it concurrently, which is harmless.
func (m *manifestModel) inventory() *inventory {
	if inv := m.inv.Load(); inv != nil {
		return inv
	}
	objs := make([]*object, 0, len(m.objects))
	for _, o := range m.objects {
		objs = append(objs, o)
	}
	sortObjects(objs)
	inv := &inventory{objects: objs}
	m.inv.Store(inv)
	return inv
}

// compareObjects orders objects as the inventory lists them: by namespace,
// path and id.
func compareObjects(a, b *object) int {
	return cmp.Or(cmp.Compare(a.ns().Rank(), b.ns().Rank()), strings.Compare(a.Path(), b.Path()), strings.Compare(a.ID(), b.ID()))
}

// sortObjects sorts objs as compareObjects orders them, reading each
// object's namespace, path and id once rather than at every comparison
// (an object's fields are read by walking its head): memdisc's query
// sorts its hits on every call.
func sortObjects(objs []*object) {
	type keyed struct {
		rank     int
		path, id string
		o        *object
	}
	keys := make([]keyed, len(objs))
	for i, o := range objs {
		f := o.fields()
		keys[i] = keyed{content.NamespaceOf(content.Kind(f[fieldKind])).Rank(), f[fieldPath], f[fieldID], o}
	}
	slices.SortFunc(keys, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), strings.Compare(a.path, b.path), strings.Compare(a.id, b.id))
	})
	for i := range keys {
		objs[i] = keys[i].o
	}
}
