package hub

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// teamMember names a member of a team.
type teamMember struct{ team, member string }

// workspaceOf names a workspace of a team.
type workspaceOf struct{ team, ws string }

// nodeOf names a node of a workspace of a team: one ledger.
type nodeOf struct{ team, ws, node string }

// evidenceStats answers the evidence part of q: the sessions last seen
// from day from to day to, with the workspace's definitions, summed per
// rule of a workspace (under the id it has now) and per member.
func evidenceStats(snap *pebble.Snapshot, q Query, from, to string) (hubwire.Evidence, map[teamMember]*memberEvidence, error) {
	out := hubwire.Evidence{Rules: []hubwire.RuleEvidence{}, Sessions: []hubwire.SessionEvidence{}, Checks: []hubwire.RuleChecks{}}
	facts, paths, err := catalogsOf(snap)
	if err != nil {
		return out, nil, err
	}
	lastPaths, err := lastPathsOf(snap)
	if err != nil {
		return out, nil, err
	}
	aliases, err := readAliases(snap)
	if err != nil {
		return out, nil, err
	}
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: prefixEvidence(), UpperBound: prefixEnd(prefixEvidence())})
	if err != nil {
		return out, nil, err
	}
	// The rows in the window, and the hosts that recorded file edits in
	// each node's ledger over all time (evidence.Hosts), as the node's
	// own read model knows them.
	type windowRow struct {
		w        workspaceOf
		node, id string
		evidenceRow
	}
	var rows []windowRow
	hosts := map[nodeOf]evidence.Hosts{}
	for it.First(); it.Valid(); it.Next() {
		p := strings.Split(string(it.Key()), sep)
		if len(p) != 5 || !q.allows(counter{Team: p[1], Workspace: p[2], Rule: q.Rule, Metric: metricRefs}) {
			continue
		}
		var row evidenceRow
		if err := json.Unmarshal(it.Value(), &row); err != nil {
			it.Close()
			return out, nil, fmt.Errorf("read the evidence of session %s: %w", p[4], err)
		}
		n := nodeOf{p[1], p[2], p[3]}
		if hosts[n] == nil {
			hosts[n] = evidence.Hosts{}
		}
		hosts[n].Add(&row.Row)
		if row.Last < from || row.Last > to || !q.ofMember(row.Member) {
			continue
		}
		rows = append(rows, windowRow{workspaceOf{p[1], p[2]}, p[3], p[4], row})
	}
	if err := it.Close(); err != nil {
		return out, nil, err
	}
	byWorkspace := map[workspaceOf][]evidence.Session{}
	byTeam := map[string][]evidence.Session{}
	members := map[teamMember]*memberEvidence{}
	for _, wr := range rows {
		w, row := wr.w, wr.evidenceRow
		// A row not folded since a reid of one of its rules.
		row.Follow(func(id string) string { return aliases.of(w.team, w.ws, id) })
		s := row.Session(wr.id, facts[w], hosts[nodeOf{w.team, w.ws, wr.node}])
		if q.Rule != "" {
			s.Rules = slices.DeleteFunc(s.Rules, func(r evidence.Rule) bool { return r.ID != q.Rule })
			s.Checks = slices.DeleteFunc(s.Checks, func(c evidence.RuleChecks) bool { return c.ID != q.Rule })
			if len(s.Rules) == 0 {
				continue
			}
			s.Unsupported = 0
			for _, r := range s.Rules {
				s.Unsupported += r.Unsupported
			}
		}
		if !s.Any() {
			continue
		}
		out.Edits += s.Edits
		out.Unsupported += s.Unsupported
		out.Gate.Add(s.Gate)
		out.Sessions = append(out.Sessions, hubwire.SessionEvidence{Team: w.team, WorkspaceID: w.ws, Node: wr.node, Member: row.Member, Session: s})
		byWorkspace[w] = append(byWorkspace[w], s)
		byTeam[w.team] = append(byTeam[w.team], s)
		m := members[teamMember{w.team, row.Member}]
		if m == nil {
			m = &memberEvidence{}
			members[teamMember{w.team, row.Member}] = m
		}
		m.figures.Add(s)
		m.who.add(s)
	}
	for _, w := range slices.SortedFunc(maps.Keys(byWorkspace), func(a, b workspaceOf) int {
		return cmp.Or(strings.Compare(a.team, b.team), strings.Compare(a.ws, b.ws))
	}) {
		for _, t := range evidence.Totals(byWorkspace[w]) {
			re := hubwire.RuleEvidence{Team: w.team, WorkspaceID: w.ws, Path: paths[w][t.ID], RuleTotals: t}
			if last := lastPaths[w][t.ID]; re.Path == "" && last != "" {
				re.Path, re.Removed = last, true
			}
			out.Rules = append(out.Rules, re)
		}
	}
	slices.SortFunc(out.Sessions, func(a, b hubwire.SessionEvidence) int {
		return cmp.Or(strings.Compare(a.Team, b.Team), strings.Compare(a.WorkspaceID, b.WorkspaceID),
			strings.Compare(a.Node, b.Node), strings.Compare(a.ID, b.ID))
	})
	out.Checks = teamChecks(out.Sessions, byTeam, paths)
	out.Hosts, out.Models = whoBreakdowns(out.Sessions)
	return out, members, nil
}

// catalogsOf reads what the hub knows of each workspace's published rules
// and workflows: the facts evidence needs, and their paths.
func catalogsOf(snap *pebble.Snapshot) (map[workspaceOf]catalogFacts, map[workspaceOf]map[string]string, error) {
	facts, paths := map[workspaceOf]catalogFacts{}, map[workspaceOf]map[string]string{}
	of := func(w workspaceOf) catalogFacts {
		f, ok := facts[w]
		if !ok {
			f = catalogFacts{published: map[string]bool{}, scoped: map[string]bool{}}
			facts[w], paths[w] = f, map[string]string{}
		}
		return f
	}
	for _, prefix := range [][]byte{prefixPublished(), prefixScoped()} {
		it, err := snap.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixEnd(prefix)})
		if err != nil {
			return nil, nil, err
		}
		for it.First(); it.Valid(); it.Next() {
			p := strings.Split(string(it.Key()), sep)
			if len(p) != 4 {
				continue
			}
			w := workspaceOf{p[1], p[2]}
			if p[0] == "g" {
				of(w).scoped[p[3]] = true
				continue
			}
			of(w).published[p[3]] = true
			paths[w][p[3]] = readPublishedRow(it.Value()).path
		}
		if err := it.Close(); err != nil {
			return nil, nil, err
		}
	}
	return facts, paths, nil
}
