package catalog

import (
	"fmt"
	"sort"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// Published is what Plan needs to know of one published object.
type Published struct {
	ID   string
	Kind content.Kind
	Path string
	Hash string
}

// namespace groups kinds whose paths share one id space: rules and
// workflows are one namespace, context another, the mpf a third.
func namespace(k content.Kind) string {
	switch k {
	case content.KindRule, content.KindWorkflow:
		return "rule"
	default:
		return string(k)
	}
}

type key struct{ ns, path string }

// Plan returns the events that make the manifest equal the files:
// catalog.publish for every new or changed file and catalog.remove for every
// published object whose file is gone, in a deterministic order (publishes by
// path, then removes). An unchanged tree gives no events. The files must
// have their bodies; see Diff for a plan that reads them one at a time.
//
// An object keeps its id across edits. A file that appears while a
// published file of the same namespace with the same hash disappears is
// taken as a rename and keeps that id. A new object gets the id ids
// records for its path (a rename pulled from another clone), else the one
// its path derives (DerivedID); the mpf is always META_PROMPT.md.
func Plan(workspaceID string, files []content.File, published []Published, ids IDs) ([]events.Event, error) {
	changes := Diff(files, published, ids)
	out := make([]events.Event, 0, len(changes))
	for _, c := range changes {
		ev, err := c.Event(workspaceID)
		if err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, nil
}

// Change is one step of a plan: the publish of File under ID, or, when
// Remove is set, the removal of that published object, or, when Reid is
// set, the end of the object's old id (Migrate).
type Change struct {
	File   content.File // Body may be empty: read it before Event
	ID     string
	Remove *Published
	Reid   *Reid
}

// Event returns the catalog event of the change. A publish describes
// File as it is, body included.
func (c Change) Event(workspaceID string) (events.Event, error) {
	if r := c.Reid; r != nil {
		ev, err := events.New(workspaceID, events.TypeCatalogReid, events.ReidData{From: r.From, To: r.To, Kind: string(r.Kind), Path: r.Path})
		if err != nil {
			return events.Event{}, fmt.Errorf("plan the new id of %s: %w", r.Path, err)
		}
		return ev, nil
	}
	if p := c.Remove; p != nil {
		ev, err := events.New(workspaceID, events.TypeCatalogRemove, events.RemoveData{ID: p.ID, Kind: string(p.Kind), Path: p.Path})
		if err != nil {
			return events.Event{}, fmt.Errorf("plan remove %s: %w", p.Path, err)
		}
		return ev, nil
	}
	f := c.File
	ev, err := events.New(workspaceID, events.TypeCatalogPublish, events.PublishData{
		ID: c.ID, Kind: string(f.Kind), Path: f.Path, Name: f.Name, Group: f.Group,
		Hash: f.Hash, Body: f.Body, Description: Describe(f.Body),
	})
	if err != nil {
		return events.Event{}, fmt.Errorf("plan publish %s: %w", f.Path, err)
	}
	return ev, nil
}

// Diff returns the changes that make the manifest equal the files, in
// Plan's order and with Plan's ids, comparing hashes only: the files'
// bodies are not needed (content.ScanIndexed leaves them out), so a plan
// of any size holds no body. Besides its answer it holds one index of the
// published objects by path: the files and the objects are neither copied
// nor sorted, only the changes are (an unchanged tree of 50,000 files
// made it hold both lists twice over).
func Diff(files []content.File, published []Published, ids IDs) []Change {
	byPath := make(map[key]int, len(published)) // the last published object at each path
	for i, p := range published {
		byPath[key{namespace(p.Kind), p.Path}] = i
	}
	// onDisk[i]: a file stands at the path of byPath's object i.
	onDisk := make([]bool, len(published))
	var changed []content.File // new or changed: an unchanged tree has none
	for _, f := range files {
		i, ok := byPath[key{namespace(f.Kind), f.Path}]
		if ok {
			onDisk[i] = true
			if p := published[i]; p.Hash == f.Hash && p.Kind == f.Kind {
				continue
			}
		}
		changed = append(changed, f)
	}
	isGone := func(p Published) bool { return !onDisk[byPath[key{namespace(p.Kind), p.Path}]] }
	gone := make(map[string][]Published) // by hash: published objects whose file is gone
	for _, p := range published {
		if isGone(p) {
			gone[p.Hash] = append(gone[p.Hash], p)
		}
	}

	sort.Slice(changed, func(i, j int) bool {
		if a, b := namespace(changed[i].Kind), namespace(changed[j].Kind); a != b {
			return a < b
		}
		return changed[i].Path < changed[j].Path
	})
	var out []Change
	renamed := make(map[string]bool)
	m := newMinter(published, gone, ids)
	for _, f := range changed {
		var id string
		if i, ok := byPath[key{namespace(f.Kind), f.Path}]; ok {
			id = published[i].ID
		} else {
			id = m.mint(f, renamed)
		}
		out = append(out, Change{File: f, ID: id})
	}

	var removed []Published
	for _, p := range published {
		if isGone(p) && !renamed[p.ID] {
			removed = append(removed, p)
		}
	}
	sort.SliceStable(removed, func(i, j int) bool { return removed[i].Path < removed[j].Path })
	for i := range removed {
		out = append(out, Change{ID: removed[i].ID, Remove: &removed[i]})
	}
	return out
}

// takeRename finds a vanished object of f's namespace with f's hash.
func takeRename(gone map[string][]Published, f content.File, renamed map[string]bool) (Published, bool) {
	for _, p := range gone[f.Hash] {
		if namespace(p.Kind) == namespace(f.Kind) && !renamed[p.ID] && f.Kind != content.KindMPF {
			renamed[p.ID] = true
			return p, true
		}
	}
	return Published{}, false
}
