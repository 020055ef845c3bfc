package hub

import (
	"maps"
	"slices"

	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// teamChecks sums the rules' checks per rule of each team over byTeam,
// the sessions of every workspace of the team in the window
// (evidence.SumChecks, as each workspace's stats do), naming the
// workspaces of sessions (sorted by team, workspace) its checks ran in
// and its path in the first that publishes it. Sorted by team, rule id.
func teamChecks(sessions []hubwire.SessionEvidence, byTeam map[string][]evidence.Session, paths map[workspaceOf]map[string]string) []hubwire.RuleChecks {
	out := []hubwire.RuleChecks{}
	where := map[[2]string][]string{} // team, rule -> workspaces
	for _, s := range sessions {
		for _, c := range s.Checks {
			k := [2]string{s.Team, c.ID}
			if ws := where[k]; len(ws) == 0 || ws[len(ws)-1] != s.WorkspaceID {
				where[k] = append(ws, s.WorkspaceID)
			}
		}
	}
	for _, team := range slices.Sorted(maps.Keys(byTeam)) {
		for _, t := range evidence.SumChecks(byTeam[team]) {
			rc := hubwire.RuleChecks{Team: team, Workspaces: where[[2]string{team, t.ID}], CheckTotals: t}
			for _, ws := range rc.Workspaces {
				if p := paths[workspaceOf{team, ws}][t.ID]; p != "" && rc.Path == "" {
					rc.Path = p
				}
			}
			out = append(out, rc)
		}
	}
	return out
}
