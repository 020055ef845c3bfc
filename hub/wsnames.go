package hub

import (
	"slices"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// workspaceNames returns the names the nodes of teams (nil: every team)
// gave their workspaces, by workspace id; of two clones that named one
// workspace differently, the one that joined last wins. Nil when none
// gave a name.
func workspaceNames(nodes []hubwire.Node, teams []string) map[string]string {
	slices.SortStableFunc(nodes, func(a, b hubwire.Node) int { return a.Joined.Compare(b.Joined) })
	var out map[string]string
	for _, n := range nodes {
		if n.WorkspaceName == "" || teams != nil && !slices.Contains(teams, n.Team) {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[n.Workspace] = n.WorkspaceName
	}
	return out
}
