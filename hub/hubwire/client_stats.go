package hubwire

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// StatsQuery selects the stats GET /api/stats answers; a zero field is
// the hub's default (daily, 30 days, everything the token reads).
type StatsQuery struct {
	Period    string
	Days      int
	Since     string // YYYY-MM-DD, with Until instead of Days
	Until     string
	Workspace string
	Rule      string
	Team      string
	Member    string
}

// values renders q as the request's parameters.
func (q StatsQuery) values() url.Values {
	v := url.Values{}
	for k, s := range map[string]string{"period": q.Period, "since": q.Since, "until": q.Until, "workspace": q.Workspace, "rule": q.Rule, "team": q.Team, "member": q.Member} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if q.Days != 0 {
		v.Set("days", strconv.Itoa(q.Days))
	}
	return v
}

// StatsSummary asks for the stats with bounded lists (admin or member:
// the teams of its token): GET /api/stats, whose lists hold their first
// SummaryItems (More says how many each left off).
func (c *Client) StatsSummary(ctx context.Context, q StatsQuery) (Stats, error) {
	var st Stats
	if err := c.call(ctx, http.MethodGet, "/api/stats?"+q.values().Encode(), nil, &st); err != nil {
		return Stats{}, fmt.Errorf("read the stats: %w", err)
	}
	return st, nil
}

// Stats asks for the usage per rule, constraint, member and day (admin or
// member: the teams of its token), its lists whole: the summary, then
// every page of each list.
func (c *Client) Stats(ctx context.Context, q StatsQuery) (Stats, error) {
	st, err := c.StatsSummary(ctx, q)
	if err != nil {
		return Stats{}, err
	}
	v := q.values()
	if st.More.Rules > 0 {
		if st.Rules, err = walk[RuleStats](ctx, c, "/api/stats/rules", v); err != nil {
			return Stats{}, fmt.Errorf("read the stats' rules: %w", err)
		}
	}
	if st.More.Members > 0 {
		if st.Members, err = walk[MemberStats](ctx, c, "/api/stats/members", v); err != nil {
			return Stats{}, fmt.Errorf("read the stats' members: %w", err)
		}
	}
	if st.More.EvidenceRules > 0 {
		if st.Evidence.Rules, err = walk[RuleEvidence](ctx, c, "/api/stats/evidence/rules", v); err != nil {
			return Stats{}, fmt.Errorf("read the stats' evidence per rule: %w", err)
		}
	}
	if st.More.Sessions > 0 {
		if st.Evidence.Sessions, err = walk[SessionEvidence](ctx, c, "/api/stats/sessions", v); err != nil {
			return Stats{}, fmt.Errorf("read the stats' sessions: %w", err)
		}
	}
	if st.More.Checks > 0 {
		if st.Evidence.Checks, err = walk[RuleChecks](ctx, c, "/api/stats/checks", v); err != nil {
			return Stats{}, fmt.Errorf("read the stats' checks: %w", err)
		}
	}
	st.More = StatsMore{}
	return st, nil
}
