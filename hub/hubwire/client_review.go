package hubwire

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// Reviews lists the submitted drafts, without bodies, of team ("" for
// every team the token reads), by id, every page; all includes the
// decided ones (admin or member).
func (c *Client) Reviews(ctx context.Context, team string, all bool) ([]Review, error) {
	q := url.Values{}
	if team != "" {
		q.Set("team", team)
	}
	if all {
		q.Set("all", "true")
	}
	rs, err := walk[Review](ctx, c, "/api/reviews", q)
	if err != nil {
		return nil, fmt.Errorf("list the reviews: %w", err)
	}
	return rs, nil
}

// Review returns submitted draft id with its body (admin or member of its
// team).
func (c *Client) Review(ctx context.Context, id string) (Review, error) {
	return c.review(ctx, http.MethodGet, id, "", nil)
}

// Accept writes submitted draft id into its team's catalog (admin or
// reviewer of its team).
func (c *Client) Accept(ctx context.Context, id string) (Review, error) {
	return c.review(ctx, http.MethodPost, id, "/accept", struct{}{})
}

// Decline declines submitted draft id for reason (admin or reviewer of
// its team).
func (c *Client) Decline(ctx context.Context, id, reason string) (Review, error) {
	return c.review(ctx, http.MethodPost, id, "/decline", DeclineRequest{Reason: reason})
}

func (c *Client) review(ctx context.Context, method, id, verb string, body any) (Review, error) {
	var r Review
	if err := c.call(ctx, method, "/api/reviews/"+url.PathEscape(id)+verb, body, &r); err != nil {
		return Review{}, fmt.Errorf("review %s%s: %w", id, verb, err)
	}
	return r, nil
}
