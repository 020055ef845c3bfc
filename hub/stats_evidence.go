package hub

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

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
// rule of a workspace (under the id it has now) and per member. The
// sessions are each day's (daySessions), kept in caches while the day
// does not change.
func evidenceStats(snap *pebble.Snapshot, caches *statsCaches, q Query, from, to string) (hubwire.Evidence, map[teamMember]*memberEvidence, error) {
	out := hubwire.Evidence{Rules: []hubwire.RuleEvidence{}, Sessions: []hubwire.SessionEvidence{}, Checks: []hubwire.RuleChecks{}}
	first, err := time.Parse(time.DateOnly, from)
	if err != nil {
		return out, nil, fmt.Errorf("%w: the first day %q", ErrInvalid, from)
	}
	last, err := time.Parse(time.DateOnly, to)
	if err != nil {
		return out, nil, fmt.Errorf("%w: the last day %q", ErrInvalid, to)
	}
	_, paths, err := catalogsOf(snap)
	if err != nil {
		return out, nil, err
	}
	lastPaths, err := lastPathsOf(snap)
	if err != nil {
		return out, nil, err
	}
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		part, err := caches.daySessions.get(snap, prefixEvidenceVersion, q, day(d), func() ([]hubwire.SessionEvidence, error) { return daySessions(snap, q, day(d)) })
		if err != nil {
			return out, nil, err
		}
		out.Sessions = append(out.Sessions, part...)
	}
	slices.SortFunc(out.Sessions, compareSessions)
	byWorkspace := map[workspaceOf][]evidence.Session{}
	byTeam := map[string][]evidence.Session{}
	members := map[teamMember]*memberEvidence{}
	for _, se := range out.Sessions {
		w, s := workspaceOf{se.Team, se.WorkspaceID}, se.Session
		out.Edits += s.Edits
		out.Unsupported += s.Unsupported
		out.Gate.Add(s.Gate)
		byWorkspace[w] = append(byWorkspace[w], s)
		byTeam[w.team] = append(byTeam[w.team], s)
		m := members[teamMember{w.team, se.Member}]
		if m == nil {
			m = &memberEvidence{}
			members[teamMember{w.team, se.Member}] = m
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
