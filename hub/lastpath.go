package hub

import (
	"fmt"
	"strings"

	"github.com/cockroachdb/pebble/v2"
)

// lastPathsOf reads the path each rule and workflow of each workspace was
// last published at (key l), the removed ones too: the hub names a rule
// the workspace no longer publishes by that path, marked removed.
func lastPathsOf(snap *pebble.Snapshot) (map[workspaceOf]map[string]string, error) {
	out := map[workspaceOf]map[string]string{}
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: prefixLastPath(), UpperBound: prefixEnd(prefixLastPath())})
	if err != nil {
		return nil, fmt.Errorf("read the rules' last paths: %w", err)
	}
	for it.First(); it.Valid(); it.Next() {
		p := strings.Split(string(it.Key()), sep)
		if len(p) != 4 {
			continue
		}
		w := workspaceOf{p[1], p[2]}
		if out[w] == nil {
			out[w] = map[string]string{}
		}
		out[w][p[3]] = string(it.Value())
	}
	if err := it.Close(); err != nil {
		return nil, fmt.Errorf("read the rules' last paths: %w", err)
	}
	return out, nil
}
