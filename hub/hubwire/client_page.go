package hubwire

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

// walk reads every page of the list at path with parameters v, MaxLimit
// items a page, and returns the items in the list's order.
func walk[T any](ctx context.Context, c *Client, path string, v url.Values) ([]T, error) {
	q := url.Values{}
	for k, s := range v {
		q[k] = s
	}
	q.Set("limit", strconv.Itoa(MaxLimit))
	out := []T{}
	for {
		var p Page[T]
		if err := c.call(ctx, http.MethodGet, path+"?"+q.Encode(), nil, &p); err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		if p.Next == "" {
			return out, nil
		}
		q.Set("cursor", p.Next)
	}
}
