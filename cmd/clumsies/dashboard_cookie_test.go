package main_test

import (
	"context"
	"testing"
	"time"

	"github.com/clumsies/clumsies/internal/browser"
	"github.com/clumsies/clumsies/internal/testbin"
)

// TestDashboard_TwoServersOneBrowser opens the dashboards of two servers
// on two ports of 127.0.0.1 in one browser, each once with its own
// ?token=. A browser sends a host's cookies to all its ports: each server
// must keep its own cookie, so that both pages still open afterwards, and
// a ?token= must win over a cookie the browser already sends.
func TestDashboard_TwoServersOneBrowser(t *testing.T) {
	a, b := newWorkspace(t), newWorkspace(t)
	baseA := serveHTTP(t, a, "--http", "127.0.0.1:0")
	baseB := serveHTTP(t, b, "--http", "127.0.0.1:0")
	tokA, tokB := testbin.HTTPToken(t, a), testbin.HTTPToken(t, b)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	br, err := browser.Start(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	tab, closeTab, err := br.Tab()
	if err != nil {
		t.Fatal(err)
	}
	defer closeTab()
	pa := &page{tb: t, ctx: tab, b: br, base: baseA}
	pb := &page{tb: t, ctx: tab, b: br, base: baseB}
	pa.open("/?token="+tokA, "overview")
	pb.open("/?token="+tokB, "overview") // A's cookie is sent to B too
	pa.open("/", "overview")
	pb.open("/", "overview")
	if n := pa.number(`document.cookie.length`); n != 0 {
		t.Errorf("the token cookie is readable from the page (%d characters), want HttpOnly", n)
	}
}
