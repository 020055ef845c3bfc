package hub

import (
	"strconv"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// ruleKey names a rule of a workspace of a team.
type ruleKey struct{ team, ws, rule string }

// memberKey names a member of a team, for the counters.
type memberKey struct{ team, member string }

// countSums is what the daily counters of some days add up to under a
// query: a day's part of the stats (countDay), or a window's (add). Every
// figure is a sum over the days but the distinct workspaces and nodes,
// which are sets; a day is active, for the totals and for a member, when
// it counted an event.
type countSums struct {
	// point is the day's point of the trend, or the window's sums
	// (add); rejects and activeDays are the totals' others.
	point       hubwire.TrendPoint
	rejects     uint64
	activeDays  int
	rules       map[ruleKey]*hubwire.RuleStats // Refs and Loads
	constraints map[ruleKey]map[string]uint64
	revisions   map[ruleKey]map[uint64]uint64
	members     map[memberKey]*hubwire.MemberStats // but Evidence, Hosts and Models
	wss, nodes  map[string]bool
}

func newCountSums() *countSums {
	return &countSums{rules: map[ruleKey]*hubwire.RuleStats{}, constraints: map[ruleKey]map[string]uint64{},
		revisions: map[ruleKey]map[uint64]uint64{}, members: map[memberKey]*hubwire.MemberStats{},
		wss: map[string]bool{}, nodes: map[string]bool{}}
}

// countDay sums the counters of day d in snap within q: the day's part
// of q's stats.
func countDay(snap *pebble.Snapshot, q Query, d string) (*countSums, error) {
	out := newCountSums()
	out.point.Period = d
	aliases, err := readAliases(snap)
	if err != nil {
		return nil, err
	}
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: prefixDay(d), UpperBound: prefixEnd(prefixDay(d))})
	if err != nil {
		return nil, err
	}
	for it.First(); it.Valid(); it.Next() {
		c, ok := parseCounter(it.Key())
		if ok && c.Rule != "" {
			c.Rule = aliases.of(c.Team, c.Workspace, c.Rule)
		}
		if !ok || !q.allows(c) || !q.ofMember(c.Member) {
			continue
		}
		out.count(c, getUint(it.Value()))
	}
	if err := it.Close(); err != nil {
		return nil, err
	}
	return out, nil
}

// count adds n of counter c, of the day of s.
func (s *countSums) count(c counter, n uint64) {
	tp := &s.point
	mk := memberKey{c.Team, c.Member}
	m := s.members[mk]
	if m == nil {
		m = &hubwire.MemberStats{Member: c.Member, Team: c.Team}
		s.members[mk] = m
	}
	switch c.Metric {
	case metricEvents:
		tp.Events += n
		m.Events += n
		s.wss[c.Workspace], s.nodes[c.Node] = true, true
		s.activeDays, m.ActiveDays = 1, 1
	case metricRefs, metricLoads:
		rk := ruleKey{c.Team, c.Workspace, c.Rule}
		r := s.rule(rk)
		if c.Metric == metricLoads {
			tp.Loads += n
			r.Loads += n
			break
		}
		tp.Refs += n
		m.Refs += n
		r.Refs += n
		if s.constraints[rk] == nil {
			s.constraints[rk] = map[string]uint64{}
		}
		s.constraints[rk][c.Constraint] += n
	case metricRevRefs:
		rev, err := strconv.ParseUint(c.Constraint, 10, 64)
		if err != nil {
			break
		}
		rk := ruleKey{c.Team, c.Workspace, c.Rule}
		if s.revisions[rk] == nil {
			s.revisions[rk] = map[uint64]uint64{}
		}
		s.revisions[rk][rev] += n
	case metricSessions:
		tp.Sessions += n
		m.Sessions += n
	case metricHookSessions:
		tp.SessionsHooksOnly += n
		m.SessionsHooksOnly += n
	case metricHookSetUp: // counted on the same day as its metricHookSessions
		tp.SessionsHooksOnly -= n
		m.SessionsHooksOnly -= n
	case metricReports:
		tp.Reports += n
		m.Reports += n
	case metricRejects:
		s.rejects += n
	}
}

// rule returns rk's sums, made on first use.
func (s *countSums) rule(rk ruleKey) *hubwire.RuleStats {
	r := s.rules[rk]
	if r == nil {
		r = &hubwire.RuleStats{ID: rk.rule, WorkspaceID: rk.ws, Team: rk.team, Constraints: []hubwire.ConstraintStats{}}
		s.rules[rk] = r
	}
	return r
}

// totals returns the totals of s but the workspaces, nodes and members.
func (s *countSums) totals() hubwire.Totals {
	p := s.point
	return hubwire.Totals{Events: p.Events, Refs: p.Refs, Loads: p.Loads, Sessions: p.Sessions,
		SessionsHooksOnly: p.SessionsHooksOnly, Reports: p.Reports, Rejects: s.rejects, ActiveDays: s.activeDays}
}

// add adds day's sums to s, a window's: s keeps none of day's memory.
func (s *countSums) add(day *countSums) {
	addPoint(&s.point, day.point)
	s.rejects += day.rejects
	s.activeDays += day.activeDays
	for rk, r := range day.rules {
		sr := s.rule(rk)
		sr.Refs += r.Refs
		sr.Loads += r.Loads
	}
	for rk, cs := range day.constraints {
		if s.constraints[rk] == nil {
			s.constraints[rk] = map[string]uint64{}
		}
		for id, n := range cs {
			s.constraints[rk][id] += n
		}
	}
	for rk, revs := range day.revisions {
		if s.revisions[rk] == nil {
			s.revisions[rk] = map[uint64]uint64{}
		}
		for rev, n := range revs {
			s.revisions[rk][rev] += n
		}
	}
	for mk, m := range day.members {
		sm := s.members[mk]
		if sm == nil {
			sm = &hubwire.MemberStats{Member: m.Member, Team: m.Team}
			s.members[mk] = sm
		}
		sm.Events += m.Events
		sm.Refs += m.Refs
		sm.Sessions += m.Sessions
		sm.SessionsHooksOnly += m.SessionsHooksOnly
		sm.Reports += m.Reports
		sm.ActiveDays += m.ActiveDays
	}
	for ws := range day.wss {
		s.wss[ws] = true
	}
	for n := range day.nodes {
		s.nodes[n] = true
	}
}
