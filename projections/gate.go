package projections

import "slices"

// Gate is what the pre-tool gate needs to decide on a tool about to change
// files: the rules and workflows in scope for the files (InScope) that
// the session has not loaded with memload, each with the files it
// matched. A rule loaded in the session, in any version, counts as
// loaded.
type Gate struct {
	Missing []Scoped `json:"missing,omitempty"`
	// InScope counts the items in scope for the files, loaded or not.
	InScope int `json:"inScope"`
}

// GateOf returns the Gate of a session that loaded the ids loaded
// (sorted) for items and paths (workspace-relative).
func GateOf(items []Item, paths, loaded []string) Gate {
	scoped := InScope(items, paths)
	g := Gate{InScope: len(scoped)}
	for _, sc := range scoped {
		if _, ok := slices.BinarySearch(loaded, sc.Item.ID); !ok {
			sc.Item = Item{ID: sc.Item.ID, Kind: sc.Item.Kind, Path: sc.Item.Path, Name: sc.Item.Name, Paths: sc.Item.Paths}
			g.Missing = append(g.Missing, sc)
		}
	}
	return g
}

// load records that the session loaded id.
func (r *complianceRow) load(id string) {
	if i, ok := slices.BinarySearch(r.Loaded, id); !ok {
		r.Loaded = slices.Insert(r.Loaded, i, id)
	}
}

// SessionLoaded returns the ids session id loaded with memload, sorted;
// nil when it loaded none.
func (s *Store) SessionLoaded(id string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if r, ok := s.st.compliance.byID[id]; ok {
		return slices.Clone(r.Loaded)
	}
	return nil
}
