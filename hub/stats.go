package hub

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// Query selects the stats to answer.
type Query struct {
	// Period groups the trend: daily, weekly (weeks start on Monday) or
	// monthly. Empty means daily.
	Period string
	// Days is how many days back from Now (included) are counted; or
	// Since and Until (YYYY-MM-DD, included) are the first and last day
	// (package dayrange). None of them means the last 30 days.
	Days         int
	Since, Until string
	// Now is the last day counted; zero means today (UTC).
	Now time.Time
	// Teams limits the answer to these teams; nil means every team.
	Teams []string
	// Workspace and Rule, if set, limit the answer to one workspace or
	// one rule.
	Workspace string
	Rule      string
	// Member, if set, limits the counts and the evidence to that
	// member's nodes (statsmember.go).
	Member string
}

// topRules is how many rules TopRules lists.
const topRules = 10

// Stats answers q from the read models. A rule referred to with a
// catalog revision is a team rule: it takes its path from the team's
// catalog and is not counted as unlisted.
func (h *Hub) Stats(q Query) (hubwire.Stats, error) {
	return h.stats(q, &h.proj.caches)
}

// stats answers q as Stats does, with the projector's answers kept in
// caches.
func (h *Hub) stats(q Query, caches *statsCaches) (hubwire.Stats, error) {
	st, err := h.proj.statsWith(q, caches)
	if err != nil {
		return st, err
	}
	manifests := map[string]map[string]string{} // team -> id -> path
	fill := func(rules []hubwire.RuleStats, count bool) {
		for i := range rules {
			r := &rules[i]
			if len(r.Revisions) == 0 {
				continue
			}
			paths, ok := manifests[r.Team]
			if !ok {
				paths = map[string]string{}
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				if m, err := h.TeamManifest(ctx, r.Team); err == nil {
					for _, o := range m.Objects {
						paths[o.ID] = o.Path
					}
				}
				cancel()
				manifests[r.Team] = paths
			}
			r.Source = "team"
			if r.Path == "" {
				r.Path = paths[r.ID]
				if count && r.Refs > 0 && st.Coverage.Unlisted > 0 {
					st.Coverage.Unlisted--
				}
			}
		}
	}
	fill(st.Rules, true)
	fill(st.TopRules, false)
	st.WorkspaceNames = workspaceNames(h.Nodes(), q.Teams)
	// A team rule's path came from its catalog: the rules are in the
	// order of their keys again, which their pages follow.
	slices.SortFunc(st.Rules, func(a, b hubwire.RuleStats) int { return slices.Compare(a.Key(), b.Key()) })
	return st, nil
}

// stats answers q from the read models, with the projector's caches.
func (p *projector) stats(q Query) (hubwire.Stats, error) { return p.statsWith(q, &p.caches) }

// statsWith answers q from the read models: from caches when they hold
// the answer at the read models' checkpoint, else computed and kept
// there. The answer is computed and kept with a daily trend, which
// gives every period's (trendOf): the summary of a weekly page and its
// lists' pages, which name no period, share it. The answer is the
// caller's to change (cloneStats).
func (p *projector) statsWith(q Query, caches *statsCaches) (hubwire.Stats, error) {
	switch q.Period {
	case "":
		q.Period = hubwire.PeriodDaily
	case hubwire.PeriodDaily, hubwire.PeriodWeekly, hubwire.PeriodMonthly:
	default:
		return hubwire.Stats{}, fmt.Errorf("%w: period %q: want daily, weekly or monthly", ErrInvalid, q.Period)
	}
	from, to, err := q.window()
	if err != nil {
		return hubwire.Stats{}, err
	}
	snap := p.db.NewSnapshot()
	defer snap.Close()
	applied := checkpointOf(snap)
	daily := q
	daily.Period = hubwire.PeriodDaily
	kept, err := caches.stats.get(applied, keyOf(q, day(from), day(to)), func() (hubwire.Stats, error) {
		return computeStats(snap, caches, applied, daily, from, to)
	})
	if err != nil {
		return hubwire.Stats{}, err
	}
	// The evidence is kept apart, once (evidenceAt), not in every answer.
	ea, err := evidenceAt(snap, caches, applied, q, day(from), day(to))
	if err != nil {
		return hubwire.Stats{}, err
	}
	st := cloneStats(kept)
	st.Evidence = ea.ev
	st.Period = q.Period
	if st.Trend, err = trendOf(kept.Trend, q.Period); err != nil {
		return hubwire.Stats{}, err
	}
	return st, nil
}

// computeStats computes q's answer over the days from to to from snap,
// the read models at checkpoint applied, but its Evidence: the members'
// evidence comes from evidenceAt, which keeps the evidence itself. It
// adds up each day's part (countDay), kept in caches while the day does
// not change, and q.Period must be daily: the trend has a point per day.
func computeStats(snap *pebble.Snapshot, caches *statsCaches, applied uint64, q Query, from, to time.Time) (hubwire.Stats, error) {
	out := hubwire.Stats{Period: q.Period, From: day(from), To: day(to), Rules: []hubwire.RuleStats{}, TopRules: []hubwire.RuleStats{},
		Trend: []hubwire.TrendPoint{}, Members: []hubwire.MemberStats{}, NeverReferred: []hubwire.RuleStats{}}
	out.Applied = applied
	if v, closer, err := snap.Get(keyBad); err == nil {
		out.Refused = getUint(v)
		closer.Close()
	}
	sums, days := newCountSums(), []*countSums{}
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		part, err := caches.dayCounts.get(snap, prefixCountsVersion, q, day(d), func() (*countSums, error) { return countDay(snap, q, day(d)) })
		if err != nil {
			return hubwire.Stats{}, err
		}
		sums.add(part)
		days = append(days, part)
		// Every day of the range has its point, zeros for a quiet one.
		out.Trend = append(out.Trend, part.point)
	}
	out.Totals = sums.totals()
	rules, constraints, revisions := byRule(days)
	members := sums.members
	// Published rules, for paths and coverage.
	published := map[ruleKey]publishedRule{}
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: prefixPublished(), UpperBound: prefixEnd(prefixPublished())})
	if err != nil {
		return hubwire.Stats{}, err
	}
	for it.First(); it.Valid(); it.Next() {
		p := strings.Split(string(it.Key()), sep)
		if len(p) != 4 {
			continue
		}
		rk := ruleKey{p[1], p[2], p[3]}
		if !q.allows(counter{Team: rk.team, Workspace: rk.ws, Rule: rk.rule, Metric: metricRefs}) {
			continue
		}
		published[rk] = readPublishedRow(it.Value())
	}
	if err := it.Close(); err != nil {
		return hubwire.Stats{}, err
	}
	out.Coverage.Published = uint64(len(published))
	lastPaths, err := lastPathsOf(snap)
	if err != nil {
		return hubwire.Stats{}, err
	}
	for rk, pr := range published {
		if rules[rk] == nil {
			rules[rk] = &hubwire.RuleStats{ID: rk.rule, WorkspaceID: rk.ws, Team: rk.team, Constraints: []hubwire.ConstraintStats{}}
		}
		rules[rk].Path = pr.path
		out.Coverage.Constraints += uint64(len(pr.constraints))
		for _, id := range pr.constraints {
			if constraints[rk][id] > 0 {
				out.Coverage.ConstraintsReferred++
			}
		}
	}
	for rk, r := range rules {
		if _, ok := published[rk]; !ok && lastPaths[workspaceOf{rk.team, rk.ws}][rk.rule] != "" {
			r.Path, r.Removed = lastPaths[workspaceOf{rk.team, rk.ws}][rk.rule], true
		}
		for id, n := range constraints[rk] {
			r.Constraints = append(r.Constraints, hubwire.ConstraintStats{ID: id, Refs: n})
		}
		slices.SortFunc(r.Constraints, func(a, b hubwire.ConstraintStats) int { return strings.Compare(a.ID, b.ID) })
		for rev, n := range revisions[rk] {
			r.Revisions = append(r.Revisions, hubwire.RevisionStats{Revision: rev, Refs: n})
		}
		slices.SortFunc(r.Revisions, func(a, b hubwire.RevisionStats) int { return cmp.Compare(a.Revision, b.Revision) })
		out.Rules = append(out.Rules, *r)
		if r.Refs > 0 {
			if _, ok := published[rk]; ok {
				out.Coverage.Referred++
			} else {
				out.Coverage.Unlisted++
			}
		}
	}
	if out.Coverage.Published > 0 {
		out.Coverage.Ratio = float64(out.Coverage.Referred) / float64(out.Coverage.Published)
	}
	if out.Coverage.Constraints > 0 {
		out.Coverage.ConstraintRatio = float64(out.Coverage.ConstraintsReferred) / float64(out.Coverage.Constraints)
	}
	slices.SortFunc(out.Rules, func(a, b hubwire.RuleStats) int {
		return cmp.Or(strings.Compare(a.Team, b.Team), strings.Compare(a.WorkspaceID, b.WorkspaceID),
			strings.Compare(a.Path, b.Path), strings.Compare(a.ID, b.ID))
	})
	for _, r := range out.Rules {
		if r.Refs > 0 {
			out.TopRules = append(out.TopRules, r)
		}
	}
	slices.SortStableFunc(out.TopRules, func(a, b hubwire.RuleStats) int { return cmp.Compare(b.Refs, a.Refs) })
	if len(out.TopRules) > topRules {
		out.TopRules = out.TopRules[:topRules]
	}
	ea, err := evidenceAt(snap, caches, applied, q, day(from), day(to))
	if err != nil {
		return hubwire.Stats{}, err
	}
	for tm, f := range ea.byMember {
		mk := memberKey(tm)
		if members[mk] == nil {
			members[mk] = &hubwire.MemberStats{Member: tm.member, Team: tm.team}
		}
		members[mk].Evidence, members[mk].Hosts, members[mk].Models = f.figures, f.who.hosts, f.who.models
	}
	for _, m := range members {
		out.Members = append(out.Members, *m)
	}
	slices.SortFunc(out.Members, func(a, b hubwire.MemberStats) int {
		return cmp.Or(strings.Compare(a.Team, b.Team), strings.Compare(a.Member, b.Member))
	})
	out.Totals.Workspaces, out.Totals.Nodes = len(sums.wss), len(sums.nodes)
	out.Totals.Members = len(members)
	return out, nil
}

// allows reports whether counter c is within q's teams, workspace and rule.
func (q Query) allows(c counter) bool {
	if q.Teams != nil && !slices.Contains(q.Teams, c.Team) {
		return false
	}
	if q.Workspace != "" && c.Workspace != q.Workspace {
		return false
	}
	if q.Rule != "" && (c.Metric != metricRefs && c.Metric != metricLoads && c.Metric != metricRevRefs || c.Rule != q.Rule) {
		return false
	}
	return true
}

func day(t time.Time) string { return t.UTC().Format("2006-01-02") }

// periodStart returns the first day of d's period.
func periodStart(d time.Time, period string) string {
	switch period {
	case hubwire.PeriodWeekly:
		back := (int(d.Weekday()) + 6) % 7 // days since Monday
		return day(d.AddDate(0, 0, -back))
	case hubwire.PeriodMonthly:
		return day(time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC))
	}
	return day(d)
}

// prefixEnd returns the smallest key after every key with prefix p.
func prefixEnd(p []byte) []byte {
	end := bytes.Clone(p)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
