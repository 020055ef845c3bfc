package projections

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// Gate is what the pre-tool gate needs to decide on a tool about to change
// files: the rules and workflows in scope for the files (InScope) that
// the session has not loaded with memload, each with the files it
// matched.
//
// A rule counts as loaded when the session received, in a memload answer
// that carried its content, the version in force or one with the same
// constraints (Version): not an answer to a known hash that sent nothing
// the session had not received before, not a draft, and not a version
// whose constraints have changed since.
type Gate struct {
	Missing []Scoped `json:"missing,omitempty"`
	// InScope counts the items in scope for the files, loaded or not.
	InScope int `json:"inScope"`
}

// Version is a version of a rule or workflow as a session receives it:
// the hash of its body and the hash of its constraints (ConstraintsHash).
type Version struct {
	Hash        string `json:"hash"`
	Constraints string `json:"constraints,omitempty"`
}

// VersionOf returns the version of it, an item read with its constraints
// (View).
func VersionOf(it Item) Version {
	v := Version{Hash: it.Hash}
	if it.Kind == content.KindRule || it.Kind == content.KindWorkflow {
		v.Constraints = ConstraintsHash(it.Constraints)
	}
	return v
}

// ConstraintsHash returns the hash of the constraints cs: one line per
// constraint with its id and the hash of its text. Two versions of a rule
// with the same constraints hash ask the same of an agent: they differ
// only in what is not a constraint (the title, examples, front matter).
func ConstraintsHash(cs []content.Constraint) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.ID)
		b.WriteByte(0)
		b.WriteString(c.TextHash)
		b.WriteByte('\n')
	}
	return content.Hash([]byte(b.String()))
}

// Loads are the versions of each rule, workflow or context item a session
// received with memload, by id (SessionLoads).
type Loads map[string][]Version

// counts reports whether a session that received vs has loaded the
// version cur: the same body, or the same constraints.
func counts(vs []Version, cur Version) bool {
	for _, v := range vs {
		if v.Hash == cur.Hash || v.Constraints != "" && v.Constraints == cur.Constraints {
			return true
		}
	}
	return false
}

// GateOf returns the Gate of a session that received loads, for items and
// paths (workspace-relative). inForce returns the version in force of an
// item: the published body and its constraints, whatever draft another
// session has staged (View's InForce). It is asked only for the items in
// scope that the session received some version of; its error is
// GateOf's.
func GateOf(items []Item, paths []string, loads Loads, inForce func(id string) (Version, error)) (Gate, error) {
	scoped := InScope(items, paths)
	g := Gate{InScope: len(scoped)}
	for _, sc := range scoped {
		loaded := false
		if vs := loads[sc.Item.ID]; len(vs) > 0 {
			cur, err := inForce(sc.Item.ID)
			if err != nil {
				return Gate{}, err
			}
			loaded = counts(vs, cur)
		}
		if !loaded {
			sc.Item = Item{ID: sc.Item.ID, Kind: sc.Item.Kind, Path: sc.Item.Path, Name: sc.Item.Name, Paths: sc.Item.Paths}
			g.Missing = append(g.Missing, sc)
		}
	}
	return g, nil
}

// InForce returns the version in force of it, an item read with View:
// that of the published object under its open draft (Item.InForce), else
// its own.
func InForce(it Item) Version {
	if it.InForce != nil {
		return VersionOf(*it.InForce)
	}
	return VersionOf(it)
}

// load folds one item of a successful memload: a version the session
// received (events.LoadedItem.Delivered) joins its loads of the id. An
// answer that sent nothing adds nothing: if the session had received that
// hash, it is there already.
func (r *complianceRow) load(it events.LoadedItem) {
	if !it.Delivered() {
		return
	}
	v := Version{Hash: it.Hash, Constraints: it.ConstraintsHash}
	if r.Loads == nil {
		r.Loads = make(map[string][]Version)
	}
	vs := r.Loads[it.ID]
	if i, ok := slices.BinarySearchFunc(vs, v, compareVersions); !ok {
		r.Loads[it.ID] = slices.Insert(vs, i, v)
	}
}

func compareVersions(a, b Version) int {
	return cmp.Or(cmp.Compare(a.Hash, b.Hash), cmp.Compare(a.Constraints, b.Constraints))
}

// reid folds a catalog.reid of from to to: the versions the session
// received under from count under to. It reports whether the row changed.
func (r *complianceRow) reid(from, to string) bool {
	vs, ok := r.Loads[from]
	if !ok || from == to {
		return false
	}
	delete(r.Loads, from)
	for _, v := range vs {
		if i, found := slices.BinarySearchFunc(r.Loads[to], v, compareVersions); !found {
			r.Loads[to] = slices.Insert(r.Loads[to], i, v)
		}
	}
	return true
}

// SessionLoads returns the versions session id received with memload;
// nil when it received none.
func (s *Store) SessionLoads(id string) Loads {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.st.compliance.byID[id]
	if !ok || len(r.Loads) == 0 {
		return nil
	}
	out := make(Loads, len(r.Loads))
	for k, vs := range r.Loads {
		out[k] = slices.Clone(vs)
	}
	return out
}

// SessionLoaded returns the ids of which session id received some version
// with memload, sorted; nil when it received none. Whether that version
// still counts is GateOf's question.
func (s *Store) SessionLoaded(id string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if r, ok := s.st.compliance.byID[id]; ok && len(r.Loads) > 0 {
		return slices.Sorted(maps.Keys(r.Loads))
	}
	return nil
}
