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

// Stats asks for the usage per rule, constraint, member and day (admin or
// member: the teams of its token).
func (c *Client) Stats(ctx context.Context, q StatsQuery) (Stats, error) {
	var st Stats
	if err := c.call(ctx, http.MethodGet, "/api/stats?"+q.values().Encode(), nil, &st); err != nil {
		return Stats{}, fmt.Errorf("read the stats: %w", err)
	}
	return st, nil
}
