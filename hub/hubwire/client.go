package hubwire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// callTimeout bounds one request of the Client when ctx has no earlier
// deadline.
const callTimeout = time.Minute

// maxAnswer bounds an answer's body (a catalog's history holds bodies).
const maxAnswer = 64 << 20

// ErrAnswerTooLarge means the hub's answer was over maxAnswer: it is not
// read, rather than read cut short.
var ErrAnswerTooLarge = errors.New("hub: the answer is over 64 MiB; ask for less (a shorter range, one team or one workspace)")

// Client calls the hub's HTTP API. Its zero value is not usable: make it
// with NewClient or NewNodeClient.
type Client struct {
	url string
	// auth sets a request's Authorization header; nil sends none.
	auth func(*http.Request) error
}

// NewClient returns a client of the hub's API at url that sends token (an
// admin or member token; "" for none, as a join needs) as a bearer token.
func NewClient(url, token string) *Client {
	c := &Client{url: strings.TrimRight(url, "/")}
	if token != "" {
		c.auth = func(r *http.Request) error {
			r.Header.Set("Authorization", "Bearer "+token)
			return nil
		}
	}
	return c
}

// NewNodeClient returns a client of the hub's API at url that signs each
// request as node nodeID with the node's nkey seed (NodeAuthScheme): a
// node may ask about itself only.
func NewNodeClient(url, nodeID, seed string) *Client {
	return &Client{url: strings.TrimRight(url, "/"), auth: func(r *http.Request) error {
		h, err := SignNode(nodeID, seed, time.Now())
		if err != nil {
			return err
		}
		r.Header.Set("Authorization", h)
		return nil
	}}
}

// URL returns the hub's API URL.
func (c *Client) URL() string { return c.url }

// call sends a request with body (JSON; nil for none) and decodes the
// answer into out. A failure the hub answered is an *Error; a hub that
// did not answer gives ErrUnreachable.
func (c *Client) call(ctx context.Context, method, path string, body, out any) error {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode the request: %w", err)
		}
		r = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, c.url+path, r)
	if err != nil {
		return fmt.Errorf("make the request: %w", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.auth != nil {
		if err := c.auth(req); err != nil {
			return err
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%w at %s: %w", ErrUnreachable, c.url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return fmt.Errorf("%w: read the answer: %w", ErrUnreachable, err)
	}
	if len(b) > maxAnswer {
		return fmt.Errorf("%w (%s %s)", ErrAnswerTooLarge, method, path)
	}
	if resp.StatusCode != http.StatusOK {
		return decodeError(resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%w: unreadable answer: %w", ErrUnreachable, err)
	}
	return nil
}
