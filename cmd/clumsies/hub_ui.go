package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// HubUICommand prints the address that opens the hub's dashboard with a
// token: the admin's (from the hub's folder) or the one given.
type HubUICommand struct {
	m    *Main
	hub  hubFlags
	json bool
}

// Run implements command.
func (c *HubUICommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hub ui", "hub ui [--hub DIR | --url URL --token T] [--json]")
	c.hub.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	if _, err := parsePositional(fs, args, 0); err != nil {
		return err
	}
	api, token, err := c.hub.resolve()
	if err != nil {
		return err
	}
	if token == "" {
		return fmt.Errorf("%w: hub ui needs a token to put in the address: --hub DIR (the admin's), or --token-file PATH with a member token (clumsies hub token)", errUsage)
	}
	if _, err := hubwire.NewClient(api, "").Health(ctx); errors.Is(err, hubwire.ErrUnreachable) {
		return fmt.Errorf("the hub at %s does not answer: start it with clumsies hub serve --hub DIR (%w)", api, err)
	}
	out := struct {
		URL string `json:"url"`
	}{dashboardURL(api, token)}
	if c.json {
		return printJSON(c.m.Stdout, out)
	}
	fmt.Fprintln(c.m.Stdout, out.URL)
	fmt.Fprintln(c.m.Stderr, "clumsies: open it once in a browser; the dashboard keeps the token as a cookie and takes it out of the address")
	return nil
}

// dashboardURL returns the address of the hub's dashboard at API URL api
// with token, for a browser: a listener on every address (0.0.0.0, ::)
// is opened on this machine's loopback.
func dashboardURL(api, token string) string {
	u, err := url.Parse(api)
	if err != nil {
		return api + "/?token=" + url.QueryEscape(token)
	}
	if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsUnspecified() {
		u.Host = net.JoinHostPort("127.0.0.1", u.Port())
	}
	u.Path = "/"
	u.RawQuery = url.Values{"token": {token}}.Encode()
	return u.String()
}
