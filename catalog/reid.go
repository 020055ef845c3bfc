package catalog

import (
	"sort"

	"github.com/clumsies/clumsies/content"
)

// Reid is the change of a published object's id from From to To.
type Reid struct {
	From, To string
	Kind     content.Kind
	Path     string
}

// Migrate returns the changes that give every published object whose
// file still stands at its path the id ids expects there (the recorded
// one, else the derived one: the random ids of older versions, a rename
// whose ids file was not pulled), and the published objects as they are
// once those changes are applied, for Diff. Each object is published
// under its new id, with its file as it is now, then reided. An object is
// left alone while keep says so (it has an open draft), when its file's
// kind moved to another namespace, when another object holds the id it
// should get, or when that id was retired (a reid ended it before: a
// stale ids file naming an id the object had). A reid onto a retired id
// is refused because it would close a cycle, or a chain, of ids (A to B,
// then B to A), which the hub follows to count an old id under the new
// one. The changes are in path order.
func Migrate(files []content.File, published []Published, ids IDs, keep, retired func(id string) bool) ([]Change, []Published) {
	held := make(map[string]bool, len(published))
	for _, p := range published {
		held[p.ID] = true
	}
	onDisk := make(map[key]content.File, len(files))
	for _, f := range files {
		onDisk[key{namespace(f.Kind), f.Path}] = f
	}
	type move struct {
		i  int
		f  content.File
		to string
	}
	var moves []move
	for i, p := range published {
		if p.Kind == content.KindMPF {
			continue
		}
		f, ok := onDisk[key{namespace(p.Kind), p.Path}]
		if !ok {
			continue
		}
		to := ids.expected(f.Kind, f.Path)
		if to == p.ID || held[to] || !prefixFits(to, f.Kind) || (keep != nil && keep(p.ID)) || (retired != nil && retired(to)) {
			continue
		}
		held[to] = true
		moves = append(moves, move{i, f, to})
	}
	if len(moves) == 0 {
		return nil, published
	}
	sort.Slice(moves, func(a, b int) bool { return published[moves[a].i].Path < published[moves[b].i].Path })
	after := append([]Published(nil), published...)
	out := make([]Change, 0, 2*len(moves))
	for _, m := range moves {
		p := published[m.i]
		out = append(out, Change{File: m.f, ID: m.to},
			Change{ID: m.to, Reid: &Reid{From: p.ID, To: m.to, Kind: m.f.Kind, Path: m.f.Path}})
		after[m.i] = Published{ID: m.to, Kind: m.f.Kind, Path: m.f.Path, Hash: m.f.Hash}
	}
	return out, after
}
