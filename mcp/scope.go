package mcp

import (
	"encoding/json"
	"fmt"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/projections"
)

// memdisc's paths: the files the agent is about to work on. The items in
// scope for them (their front matter globs match one: content.Matched)
// come first, each with the paths it matched.

// scopePaths are the paths of a memdisc call: as the agent wrote them,
// and workspace-relative, in the same order.
type scopePaths struct {
	given []string
	rel   []string
}

// readScopePaths reads the optional "paths" member; nil when absent.
func (s *Server) readScopePaths(f *fields) (*scopePaths, error) {
	if !f.has("paths") {
		return nil, nil
	}
	raw, err := f.array("paths")
	if err != nil {
		return nil, err
	}
	sp := &scopePaths{}
	for i, r := range raw {
		var p string
		at := fmt.Sprintf("paths[%d]", i)
		if !isJSONString(r) || json.Unmarshal(r, &p) != nil {
			return nil, invalidParams(at, "%s must be a string, got %s", at, jsonType(r))
		}
		rel, ok := content.WorkspacePath(s.cfg.Root, p)
		if !ok {
			return nil, invalidParams(at, "%s (%q) must be a file of the workspace: a path relative to its root, or an absolute path inside it", at, p)
		}
		sp.given = append(sp.given, p)
		sp.rel = append(sp.rel, rel)
	}
	return sp, nil
}

// matched returns the paths, as given, that globs match; nil for none or
// when sp is nil.
func (sp *scopePaths) matched(globs []string) []string {
	if sp == nil || len(globs) == 0 {
		return nil
	}
	var out []string
	for i, rel := range sp.rel {
		if len(content.Matched(globs, []string{rel})) > 0 {
			out = append(out, sp.given[i])
		}
	}
	return out
}

// scopeFirst returns items with those in scope for sp first, each group in
// its order, and per item the paths it matched (nil for none). Without sp
// the items stay as they are.
func scopeFirst(items []projections.Item, sp *scopePaths) ([]projections.Item, [][]string) {
	matched := make([][]string, len(items))
	if sp == nil {
		return items, matched
	}
	in := make([]projections.Item, 0, len(items))
	var out []projections.Item
	var inM, outM [][]string
	for _, it := range items {
		if m := sp.matched(it.Paths); m != nil {
			in, inM = append(in, it), append(inM, m)
		} else {
			out, outM = append(out, it), append(outM, nil)
		}
	}
	return append(in, out...), append(inM, outM...)
}
