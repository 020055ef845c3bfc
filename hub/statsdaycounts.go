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
// query: a day's part of the stats (countDay), or a window's (add; its
// rules' figures are summed by byRule, left empty). Every figure is a
// sum over the days but the distinct workspaces and nodes, which are
// sets; a day is active, for the totals and for a member, when it
// counted an event.
//
// A day's part is kept (dayCache), so its figures are flat maps of plain
// values: what a day's counters of many rules weigh in memory.
type countSums struct {
	// point is the day's point of the trend, or the window's sums
	// (add); rejects and activeDays are the totals' others.
	point       hubwire.TrendPoint
	rejects     uint64
	activeDays  int
	rules       map[ruleKey]ruleUse
	constraints map[ruleItem]uint64 // refs per constraint
	revisions   map[ruleRevision]uint64
	members     map[memberKey]*hubwire.MemberStats // but Evidence, Hosts and Models
	wss, nodes  map[string]bool
}

// ruleUse is what a rule's counters add up to.
type ruleUse struct{ refs, loads uint64 }

// ruleItem names a constraint of a rule.
type ruleItem struct {
	ruleKey
	id string
}

// ruleRevision names a revision of a rule.
type ruleRevision struct {
	ruleKey
	rev uint64
}

func newCountSums() *countSums {
	return &countSums{rules: map[ruleKey]ruleUse{}, constraints: map[ruleItem]uint64{},
		revisions: map[ruleRevision]uint64{}, members: map[memberKey]*hubwire.MemberStats{},
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
		r := s.rules[rk]
		if c.Metric == metricLoads {
			tp.Loads += n
			r.loads += n
			s.rules[rk] = r
			break
		}
		tp.Refs += n
		m.Refs += n
		r.refs += n
		s.rules[rk] = r
		s.constraints[ruleItem{rk, c.Constraint}] += n
	case metricRevRefs:
		rev, err := strconv.ParseUint(c.Constraint, 10, 64)
		if err != nil {
			break
		}
		s.revisions[ruleRevision{ruleKey{c.Team, c.Workspace, c.Rule}, rev}] += n
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

// totals returns the totals of s but the workspaces, nodes and members.
func (s *countSums) totals() hubwire.Totals {
	p := s.point
	return hubwire.Totals{Events: p.Events, Refs: p.Refs, Loads: p.Loads, Sessions: p.Sessions,
		SessionsHooksOnly: p.SessionsHooksOnly, Reports: p.Reports, Rejects: s.rejects, ActiveDays: s.activeDays}
}

// add adds day's sums to s, a window's, but its rules' (byRule): s keeps
// none of day's memory but its strings.
func (s *countSums) add(day *countSums) {
	addPoint(&s.point, day.point)
	s.rejects += day.rejects
	s.activeDays += day.activeDays
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

// byRule returns the sums of the days per rule, for the answer: each
// rule's figures, the refs of each of its constraints and of each of its
// revisions.
func byRule(days []*countSums) (map[ruleKey]*hubwire.RuleStats, map[ruleKey]map[string]uint64, map[ruleKey]map[uint64]uint64) {
	rules := map[ruleKey]*hubwire.RuleStats{}
	constraints := map[ruleKey]map[string]uint64{}
	revisions := map[ruleKey]map[uint64]uint64{}
	for _, d := range days {
		for rk, u := range d.rules {
			r := rules[rk]
			if r == nil {
				r = &hubwire.RuleStats{ID: rk.rule, WorkspaceID: rk.ws, Team: rk.team, Constraints: []hubwire.ConstraintStats{}}
				rules[rk] = r
			}
			r.Refs += u.refs
			r.Loads += u.loads
		}
		for k, n := range d.constraints {
			if constraints[k.ruleKey] == nil {
				constraints[k.ruleKey] = map[string]uint64{}
			}
			constraints[k.ruleKey][k.id] += n
		}
		for k, n := range d.revisions {
			if revisions[k.ruleKey] == nil {
				revisions[k.ruleKey] = map[uint64]uint64{}
			}
			revisions[k.ruleKey][k.rev] += n
		}
	}
	return rules, constraints, revisions
}
