package projections

import "github.com/clumsies/clumsies/content"

// Scoped is an item in scope for some files, with those of the files that
// its globs matched.
type Scoped struct {
	Item    Item
	Matched []string
}

// InScope returns the items of items that are in scope for at least one of
// paths (workspace-relative, slash-separated: content.WorkspacePath), in
// the order of items, each with the paths its globs matched
// (content.Matched). Items without globs are in scope for no path.
func InScope(items []Item, paths []string) []Scoped {
	var out []Scoped
	for _, it := range items {
		if m := content.Matched(it.Paths, paths); len(m) > 0 {
			out = append(out, Scoped{Item: it, Matched: m})
		}
	}
	return out
}
