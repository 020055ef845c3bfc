package projections

import (
	"cmp"
	"slices"
	"strings"
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
	slices.SortFunc(objs, compareObjects)
	inv := &inventory{objects: objs}
	m.inv.Store(inv)
	return inv
}

// compareObjects orders objects as the inventory lists them: by namespace,
// path and id.
func compareObjects(a, b *object) int {
	return cmp.Or(cmp.Compare(a.ns().Rank(), b.ns().Rank()), strings.Compare(a.Path(), b.Path()), strings.Compare(a.ID(), b.ID()))
}
