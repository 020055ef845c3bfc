package catalog

import "github.com/clumsies/clumsies/content"

// minter gives the files of a plan that stand at no published path their
// ids, each id at most once and never one a published object keeps.
type minter struct {
	ids  IDs
	gone map[string][]Published // by hash: published objects whose file is gone
	// held: the ids of the published objects; goneIDs: those whose file
	// is gone (a recorded rename may take them).
	held, goneIDs map[string]bool
	given         map[string]bool // ids given by this plan
}

func newMinter(published []Published, gone map[string][]Published, ids IDs) *minter {
	m := &minter{ids: ids, gone: gone, held: make(map[string]bool, len(published)),
		goneIDs: make(map[string]bool), given: make(map[string]bool)}
	for _, p := range published {
		m.held[p.ID] = true
	}
	for _, ps := range gone {
		for _, p := range ps {
			m.goneIDs[p.ID] = true
		}
	}
	return m
}

// mint returns the id of new file f, in this order: the id the ids file
// records for its path, when no object on disk keeps it (a rename
// committed in another clone: the object at the old path, if published,
// is renamed, not removed); the id of a vanished object of f's hash (a
// rename here); the id f's path derives, or when another object holds it,
// the first free fallback of that path. renamed learns the ids of the
// vanished objects taken.
func (m *minter) mint(f content.File, renamed map[string]bool) string {
	if id, ok := m.ids.recorded(f.Kind, f.Path); ok && prefixFits(id, f.Kind) && !m.given[id] && !renamed[id] {
		switch {
		case m.goneIDs[id]:
			renamed[id] = true
			return m.give(id)
		case !m.held[id]:
			return m.give(id)
		}
	}
	if p, ok := takeRename(m.gone, f, renamed); ok {
		return m.give(p.ID)
	}
	for n := 0; ; n++ {
		id := derivedID(f.Kind, f.Path, n)
		if f.Kind == content.KindMPF || (!m.held[id] && !m.given[id]) {
			return m.give(id)
		}
	}
}

func (m *minter) give(id string) string {
	m.given[id] = true
	return id
}

// prefixFits reports whether id is an id of kind k's namespace.
func prefixFits(id string, k content.Kind) bool {
	if k == content.KindContext {
		return len(id) > 2 && id[:2] == "c-"
	}
	return len(id) > 2 && id[:2] == "p-"
}
