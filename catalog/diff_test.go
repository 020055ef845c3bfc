package catalog

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/clumsies/clumsies/content"
)

// diffByCopies is the definition Diff must agree with: every file sorted,
// every published object looked up, then the removals among all of them
// sorted by path.
func diffByCopies(files []content.File, published []Published) []Change {
	onDisk := make(map[key]bool, len(files))
	for _, f := range files {
		onDisk[key{namespace(f.Kind), f.Path}] = true
	}
	byPath := make(map[key]Published, len(published))
	gone := make(map[string][]Published)
	for _, p := range published {
		k := key{namespace(p.Kind), p.Path}
		byPath[k] = p
		if !onDisk[k] {
			gone[p.Hash] = append(gone[p.Hash], p)
		}
	}
	sorted := append([]content.File(nil), files...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if a, b := namespace(sorted[i].Kind), namespace(sorted[j].Kind); a != b {
			return a < b
		}
		return sorted[i].Path < sorted[j].Path
	})
	var out []Change
	renamed := make(map[string]bool)
	m := newMinter(published, gone, nil)
	for _, f := range sorted {
		k := key{namespace(f.Kind), f.Path}
		var id string
		if p, ok := byPath[k]; ok {
			if p.Hash == f.Hash && p.Kind == f.Kind {
				continue
			}
			id = p.ID
		} else {
			id = m.mint(f, renamed)
		}
		out = append(out, Change{File: f, ID: id})
	}
	removed := append([]Published(nil), published...)
	sort.SliceStable(removed, func(i, j int) bool { return removed[i].Path < removed[j].Path })
	for i, p := range removed {
		if onDisk[key{namespace(p.Kind), p.Path}] || renamed[p.ID] {
			continue
		}
		out = append(out, Change{ID: p.ID, Remove: &removed[i]})
	}
	return out
}

// comparableChanges returns cs with the ids Diff makes up replaced by "new".
func comparableChanges(cs []Change, published []Published) []Change {
	known := map[string]bool{content.MetaPromptPath: true}
	for _, p := range published {
		known[p.ID] = true
	}
	out := make([]Change, len(cs))
	for i, c := range cs {
		if !known[c.ID] {
			c.ID = "new"
		}
		out[i] = c
	}
	return out
}

// Random trees against random manifests: edits, renames (several objects
// of one hash), removals, kind changes, a path in two namespaces.
func TestDiff_AgreesWithTheDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	kinds := []content.Kind{content.KindRule, content.KindWorkflow, content.KindContext}
	for round := range 300 {
		var published []Published
		var files []content.File
		hash := func() string { return fmt.Sprintf("h%d", rng.IntN(6)) }
		path := func() string { return fmt.Sprintf("g%d/F%d.md", rng.IntN(3), rng.IntN(12)) }
		seen := map[key]bool{}
		for i := range rng.IntN(15) {
			p := Published{ID: fmt.Sprintf("p-%d", i), Kind: kinds[rng.IntN(3)], Path: path(), Hash: hash()}
			if k := (key{namespace(p.Kind), p.Path}); !seen[k] {
				seen[k] = true
				published = append(published, p)
			}
		}
		onDisk := map[key]bool{}
		add := func(f content.File) {
			if k := (key{namespace(f.Kind), f.Path}); !onDisk[k] {
				onDisk[k] = true
				files = append(files, f)
			}
		}
		for _, p := range published {
			switch rng.IntN(4) {
			case 0: // unchanged
				add(content.File{Kind: p.Kind, Path: p.Path, Hash: p.Hash})
			case 1: // edited, maybe of another kind of its namespace
				k := p.Kind
				if k != content.KindContext && rng.IntN(2) == 0 {
					k = kinds[rng.IntN(2)]
				}
				add(content.File{Kind: k, Path: p.Path, Hash: hash()})
			case 2: // moved
				add(content.File{Kind: p.Kind, Path: path(), Hash: p.Hash})
			} // 3: removed
		}
		for range rng.IntN(5) {
			add(content.File{Kind: kinds[rng.IntN(3)], Path: path(), Hash: hash()})
		}
		rng.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })

		got := comparableChanges(Diff(files, published, nil), published)
		want := comparableChanges(diffByCopies(files, published), published)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: files %+v, published %+v:\n got %+v\nwant %+v", round, files, published, got, want)
		}
	}
}
