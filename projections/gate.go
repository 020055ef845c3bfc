package projections

import (
	"slices"
	"strings"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/evidence"
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
	// Published are the ids of the published items in scope, sorted: the
	// rules an attest.file_edit of the files names.
	Published []string `json:"published,omitempty"`
}

// Version is a version of a rule or workflow as a session receives it:
// the hash of its body and the hash of its constraints (ConstraintsHash).
type Version = evidence.Version

// VersionOf returns the version of it, an item read with its constraints
// (View): the hash of its constraints is the one View set
// (Item.ConstraintsHash), or computed when none was (an item of another
// source, or from an owner of an earlier version).
func VersionOf(it Item) Version {
	v := Version{Hash: it.Hash}
	if it.Kind == content.KindRule || it.Kind == content.KindWorkflow {
		v.Constraints = it.ConstraintsHash
		if v.Constraints == "" {
			v.Constraints = ConstraintsHash(it.Constraints)
		}
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
// received with memload, by id (SessionLoads): the one record of a
// session's loads, kept in its evidence row, which the gate and the
// evidence both read (evidence.Loads).
type Loads = evidence.Loads

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
		if sc.Item.Published {
			g.Published = append(g.Published, sc.Item.ID)
		}
		loaded := false
		if loads.Received(sc.Item.ID) {
			cur, err := inForce(sc.Item.ID)
			if err != nil {
				return Gate{}, err
			}
			loaded = loads.Counts(sc.Item.ID, cur)
		}
		if !loaded {
			sc.Item = Item{ID: sc.Item.ID, Kind: sc.Item.Kind, Path: sc.Item.Path, Name: sc.Item.Name, Paths: sc.Item.Paths}
			g.Missing = append(g.Missing, sc)
		}
	}
	slices.Sort(g.Published)
	g.Published = slices.Compact(g.Published)
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

// SessionLoads returns the versions session id received with memload;
// nil when it received none.
func (s *Store) SessionLoads(id string) Loads {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if r, ok := s.st.evidence.byID[id]; ok {
		return r.Loads.Clone()
	}
	return nil
}

// SessionLoaded returns the ids of which session id received some version
// with memload, sorted; nil when it received none. Whether that version
// still counts is GateOf's question.
func (s *Store) SessionLoaded(id string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if r, ok := s.st.evidence.byID[id]; ok && len(r.Loads) > 0 {
		return r.Loads.IDs()
	}
	return nil
}
