package projections

import (
	"cmp"
	"slices"
	"strings"
)

// inventory is the set of published objects in listing order, with a
// search index over their metadata. It is built when List or Objects first
// needs it after the catalog changed, and never modified.
type inventory struct {
	objects []*object // sorted by namespace, path, id
	// text holds the search texts of objects, one after the other; the
	// text of objects[i] ends at ends[i] and starts where the one before
	// it ends. One contiguous text is searched much faster than 10,000
	// strings scattered over the heap.
	text string
	ends []int
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
	inv := &inventory{objects: objs, ends: make([]int, len(objs))}
	var text strings.Builder
	for i, o := range objs {
		text.WriteString(o.search)
		inv.ends[i] = text.Len()
	}
	inv.text = text.String()
	m.inv.Store(inv)
	return inv
}

// compareObjects orders objects as the inventory lists them: by namespace,
// path and id.
func compareObjects(a, b *object) int {
	return cmp.Or(cmp.Compare(a.ns.Rank(), b.ns.Rank()), strings.Compare(a.Path, b.Path), strings.Compare(a.ID, b.ID))
}

// index returns the position of o in the inventory, false if it is not
// there.
func (inv *inventory) index(o *object) (int, bool) {
	i, found := slices.BinarySearchFunc(inv.objects, o, compareObjects)
	return i, found && inv.objects[i] == o
}

// matching returns a bit set of the objects whose search text holds every
// word (bit i set for objects[i]). words must not be empty.
func (inv *inventory) matching(words []string) []uint64 {
	var all []uint64
	for _, w := range words {
		bits := make([]uint64, (len(inv.objects)+63)/64)
		i := 0
		for pos := 0; pos < len(inv.text); {
			k := strings.Index(inv.text[pos:], w)
			if k < 0 {
				break
			}
			pos += k
			for inv.ends[i] <= pos {
				i++
			}
			if pos+len(w) <= inv.ends[i] {
				bits[i/64] |= 1 << (i % 64)
			}
			// A later match in objects[i] would not change the answer,
			// nor would it fit if this one did not.
			pos = inv.ends[i]
		}
		if all == nil {
			all = bits
			continue
		}
		for j := range all {
			all[j] &= bits[j]
		}
	}
	return all
}
