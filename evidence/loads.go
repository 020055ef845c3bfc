package evidence

import (
	"cmp"
	"maps"
	"slices"

	"github.com/clumsies/clumsies/events"
)

// Version is a version of a rule or workflow as a session receives it:
// the hash of its body and the hash of its constraints (empty for an
// item without any, such as context).
type Version struct {
	Hash        string `json:"hash"`
	Constraints string `json:"constraints,omitempty"`
}

// Loads are the versions of each rule, workflow or context item a session
// received with memload, by the id the item has now, each list sorted.
// It is the one record of what a session loaded: the pre-tool gate asks
// it whether the version in force counts (Counts), the evidence whether
// the session loaded the rule at all (Received), in the workspace and at
// the hub alike; a catalog.reid moves it with the rest of the session's
// Row (Row.Reid).
type Loads map[string][]Version

// Received reports whether the session received some version of id.
func (l Loads) Received(id string) bool { return len(l[id]) > 0 }

// Counts reports whether a session with these loads has loaded cur, the
// version of id in force: it received the same body, or a version with
// the same constraints.
func (l Loads) Counts(id string, cur Version) bool {
	for _, v := range l[id] {
		if v.Hash == cur.Hash || v.Constraints != "" && v.Constraints == cur.Constraints {
			return true
		}
	}
	return false
}

// IDs returns the ids the session received some version of, sorted.
func (l Loads) IDs() []string { return slices.Sorted(maps.Keys(l)) }

// Clone returns a copy of l that shares nothing with it.
func (l Loads) Clone() Loads {
	if len(l) == 0 {
		return nil
	}
	out := make(Loads, len(l))
	for id, vs := range l {
		out[id] = slices.Clone(vs)
	}
	return out
}

// add joins v to the versions of id.
func (l Loads) add(id string, v Version) {
	vs := l[id]
	if i, found := slices.BinarySearchFunc(vs, v, compareVersions); !found {
		l[id] = slices.Insert(vs, i, v)
	}
}

// reid moves the versions received under from to to. It reports whether
// l changed.
func (l Loads) reid(from, to string) bool {
	vs, ok := l[from]
	if !ok || from == to {
		return false
	}
	delete(l, from)
	for _, v := range vs {
		l.add(to, v)
	}
	return true
}

func compareVersions(a, b Version) int {
	return cmp.Or(cmp.Compare(a.Hash, b.Hash), cmp.Compare(a.Constraints, b.Constraints))
}

// Load folds a successful memload (attest.load): each item that gave the
// session a published body (events.LoadedItem.Delivered) joins its loads
// under the id it has now. An answer that sent nothing adds nothing: if
// the session had received that hash, it is there already. of gives the
// id a rule has now (nil: the id itself).
func (r *Row) Load(d *events.LoadData, of func(id string) string) {
	if of == nil {
		of = same
	}
	for _, it := range d.Items {
		if !it.Delivered() {
			continue
		}
		if r.Loads == nil {
			r.Loads = Loads{}
		}
		r.Loads.add(of(it.ID), Version{Hash: it.Hash, Constraints: it.ConstraintsHash})
	}
}
