package main_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clumsies/clumsies/internal/browser"
	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/views/dash"
)

// demoWorkspace runs `clumsies demo --keep` and returns the workspace it
// left: a ledger with a whole agent session (setup, discovers, loads, refs
// with reasons, a draft, a report).
func demoWorkspace(tb testing.TB) string {
	tb.Helper()
	var out struct {
		Dir string `json:"dir"`
	}
	if err := json.Unmarshal([]byte(mustRun(tb, tb.TempDir(), "demo", "--keep", "--json")), &out); err != nil || out.Dir == "" {
		tb.Fatalf("demo --keep --json: no dir (%v)", err)
	}
	tb.Cleanup(func() { os.RemoveAll(out.Dir) })
	return out.Dir
}

// getJSON GETs base+path and decodes the JSON answer into v.
func getJSON(tb testing.TB, base, path, token string, v any) {
	tb.Helper()
	resp := get(tb, base+path, token)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		tb.Fatalf("GET %s: decode: %v\n%s", path, err, body)
	}
}

// mcpSession connects a real MCP client to the server's /mcp and sets up
// a session.
func mcpSession(tb testing.TB, base, token, sessionID string) *sdk.ClientSession {
	tb.Helper()
	return mcpSessionWith(tb, base, token, sessionID, "")
}

// mcpSessionWith is mcpSession presenting secret, the one the session's
// session-start hook handed ("" for none).
func mcpSessionWith(tb testing.TB, base, token, sessionID, secret string) *sdk.ClientSession {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cl := sdk.NewClient(&sdk.Implementation{Name: "dashboard-test", Version: "1"}, nil)
	// Protocol 2025-11-25: an MCP session over HTTP binds the agent
	// session, so the calls after memsetup need not name it.
	cs, err := cl.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: bearerClient(token)}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		tb.Fatalf("connect to %s/mcp: %v", base, err)
	}
	tb.Cleanup(func() { cs.Close() })
	args := map[string]any{"session_id": sessionID, "knownHashes": map[string]any{"META_PROMPT.md": ""}}
	if secret != "" {
		args["session_secret"] = secret
	}
	callTool(tb, cs, "memsetup", args)
	return cs
}

func callTool(tb testing.TB, cs *sdk.ClientSession, tool string, args map[string]any) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil || res.IsError {
		tb.Fatalf("call %s: %v %+v", tool, err, res)
	}
}

// thousands formats n as the pages do (Intl.NumberFormat("en")).
func thousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// browserPage starts a headless Chromium for t (for at most five
// minutes, closed when t ends) and returns one tab of it against the
// dashboard at base.
func browserPage(t *testing.T, base string) *page {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	b, err := browser.Start(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	tab, closeTab, err := b.Tab()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeTab)
	return &page{tb: t, ctx: tab, b: b, base: base}
}

// page drives one tab of the browser against the dashboard at base.
type page struct {
	tb   testing.TB
	ctx  context.Context
	b    *browser.Browser
	base string
}

// open loads path and waits until the script has drawn the page named
// name (or a page with an error), then checks that the console stayed
// clean.
func (p *page) open(path, name string) {
	p.tb.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Navigate(p.base+path)); err != nil {
		p.tb.Fatalf("open %s: %v", path, err)
	}
	p.waitPage(name)
}

func (p *page) waitPage(name string) {
	p.tb.Helper()
	p.wait(`document.getElementById("app").dataset.page === ` + strconv.Quote(name) + ` && document.getElementById("app").dataset.loaded`)
	if errs := p.b.Errors(); len(errs) > 0 {
		p.tb.Fatalf("page %s: console errors: %q", name, errs)
	}
	if msg := p.text(`(document.querySelector("#app .err") || {}).textContent || ""`); msg != "" {
		p.tb.Fatalf("page %s shows an error: %s", name, msg)
	}
}

// wait polls a JavaScript condition until it holds, for at most a minute.
func (p *page) wait(cond string) {
	p.tb.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool]("!!("+cond+")", chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(time.Minute))); err != nil {
		p.tb.Fatalf("waiting for %s: %v (console: %q)", cond, err, p.b.Errors())
	}
}

// text evaluates a JavaScript expression that gives a string.
func (p *page) text(expr string) string {
	p.tb.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		p.tb.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

func (p *page) number(expr string) int {
	p.tb.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](expr))
	if err != nil {
		p.tb.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// figure returns the text of the card [data-figure=name].
func (p *page) figure(name string) string {
	return p.text(`(document.querySelector('[data-figure="` + name + `"]') || {}).textContent || "missing"`)
}

// shoot writes a screenshot of the page at width x height into dir/name.
func (p *page) shoot(dir, name string, width, height int64) {
	p.tb.Helper()
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(width, height)); err != nil {
		p.tb.Fatal(err)
	}
	// Let the layout settle at the new width.
	p.wait(`new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(true))))`)
	png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.tb.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		p.tb.Fatal(err)
	}
}

// TestDashboard_Browser opens every page of the dashboard of a seeded
// workspace in a real headless Chromium (one browser for all): no console
// error, the figures the API gives, links that lead to the right page, and
// new tool calls that appear on the open Live and Overview pages without a
// reload. TestScreenshots shoots the pages for `make screenshots`.
func TestDashboard_Browser(t *testing.T) {
	dir := demoWorkspace(t)
	base := serveHTTP(t, dir, "--http", "127.0.0.1:0")
	tok := testbin.HTTPToken(t, dir)

	var ov dash.Overview
	getJSON(t, base, "/api/overview", tok, &ov)
	if ov.Events == 0 || len(ov.MostApplied) == 0 || len(ov.Recent) == 0 {
		t.Fatalf("the demo ledger has no events, rules or sessions: %+v", ov)
	}
	var rules dash.Rules
	getJSON(t, base, "/api/rules", tok, &rules)
	top := ov.MostApplied[0]
	var rule dash.Rule
	getJSON(t, base, "/api/rules/"+url.PathEscape(top.ID), tok, &rule)
	sid := ov.Recent[0].ID
	var sess dash.Session
	getJSON(t, base, "/api/sessions/"+url.PathEscape(sid), tok, &sess)
	var drafts dash.Drafts
	getJSON(t, base, "/api/drafts", tok, &drafts)
	if rule.Refs == 0 || len(rule.Applied) == 0 || len(sess.Timeline) == 0 || len(drafts.Items) == 0 {
		t.Fatalf("the demo ledger lacks refs, a timeline or a draft: rule %+v, session %d events, %d drafts", rule, len(sess.Timeline), len(drafts.Items))
	}

	p := browserPage(t, base)
	tab, b := p.ctx, p.b
	// The URL serve prints, with the token, once: the browser keeps the
	// token as a cookie and the address without it.
	p.open("/?token="+tok, "overview")
	if got := p.text(`location.search`); got != "" {
		t.Errorf("after /?token=: the address keeps %q", got)
	}

	// Overview: the cards and the tools table.
	p.open("/", "overview")
	if got, want := p.figure("events"), thousands(ov.Events); got != want {
		t.Errorf("overview: events %q, want %q", got, want)
	}
	if got, want := p.figure("sessions"), thousands(uint64(ov.Sessions)); got != want {
		t.Errorf("overview: sessions %q, want %q", got, want)
	}
	if got, want := p.figure("refs"), thousands(ov.Refs); got != want {
		t.Errorf("overview: refs %q, want %q", got, want)
	}
	for _, tool := range ov.Tools {
		got := p.text(`document.querySelector('[data-tool="` + tool.Tool + `"] [data-field=calls]').textContent`)
		if got != thousands(tool.Calls) {
			t.Errorf("overview: %s calls %q, want %d", tool.Tool, got, tool.Calls)
		}
	}
	if n := p.number(`document.querySelectorAll("svg.chart rect").length`); n < len(ov.Days) {
		t.Errorf("overview: the chart has %d bars, want at least %d (one per day and series)", n, len(ov.Days))
	}

	// A link from the overview to the most applied rule.
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`[data-table=most] tr[data-rule="`+top.ID+`"] a`))); err != nil {
		t.Fatalf("click the most applied rule: %v", err)
	}
	p.waitPage("rule")
	if got := p.figure("refs"); got != thousands(rule.Refs) {
		t.Errorf("rule %s: refs %q, want %d", top.ID, got, rule.Refs)
	}
	if got := p.figure("hash"); got != rule.Hash {
		t.Errorf("rule %s: hash %q, want %q", top.ID, got, rule.Hash)
	}
	for _, c := range rule.Constraints {
		got := p.text(`(document.querySelector('[data-chart=constraints] [data-refs="` + c.ID + `"]') || {}).textContent || "missing"`)
		if got != thousands(c.Refs) {
			t.Errorf("rule %s: constraint %s shows %q refs, want %d", top.ID, c.ID, got, c.Refs)
		}
	}

	// Rules: one row per item (up to the page's limit), with its refs.
	p.open("/rules", "rules")
	if n := p.number(`document.querySelectorAll("[data-table=rules] tbody tr").length`); n != min(len(rules.Items), 500) {
		t.Errorf("rules: %d rows, want %d", n, len(rules.Items))
	}
	for _, it := range rules.Items {
		got := p.text(`document.querySelector('tr[data-rule="` + it.ID + `"] [data-field=refs]').textContent`)
		if got != thousands(it.Refs) {
			t.Errorf("rules: %s shows %q refs, want %d", it.Path, got, it.Refs)
		}
	}

	// Filter and sort: typing a path keeps its row; sorting by refs puts
	// the most referred first.
	first := rules.Items[len(rules.Items)-1]
	if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS(`input[type=search]`), first.Path)); err != nil {
		t.Fatal(err)
	}
	p.wait(`document.querySelectorAll("[data-table=rules] tbody tr").length === 1 && !!document.querySelector('tr[data-rule="` + first.ID + `"]')`)
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => { const q = document.querySelector("input[type=search]"); q.value = ""; q.dispatchEvent(new Event("input")); })()`),
		chromedp.Click(chromedp.CSS(`th[data-sort=refs]`))); err != nil {
		t.Fatal(err)
	}
	most := rules.Items[0]
	for _, it := range rules.Items {
		if it.Refs > most.Refs {
			most = it
		}
	}
	p.wait(`document.querySelector("[data-table=rules] tbody tr [data-field=refs]").textContent === ` + strconv.Quote(thousands(most.Refs)))

	// A session: its timeline, every event of it.
	p.open("/sessions/"+url.PathEscape(sid), "session")
	if n := p.number(`document.querySelectorAll("[data-timeline] li").length`); n != len(sess.Timeline) {
		t.Errorf("session %s: %d timeline entries, want %d", sid, n, len(sess.Timeline))
	}
	p.open("/sessions", "sessions")

	// Drafts, with their diffs.
	p.open("/drafts", "drafts")
	if got := p.text(`document.querySelector("[data-count]").dataset.count`); got != strconv.Itoa(len(drafts.Items)) {
		t.Errorf("drafts: %s shown, want %d", got, len(drafts.Items))
	}
	if n := p.number(`document.querySelectorAll(".diff div").length`); n == 0 {
		t.Errorf("drafts: no diff lines shown")
	}

	// Live: a new tool call appears without a reload.
	p.open("/live", "live")
	p.wait(`document.querySelectorAll("[data-table=live] tbody tr[data-seq]").length > 0`)
	chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))
	// The type filter keeps the rows of one type.
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector("select[aria-label=type]"); s.value = "attest.refer"; s.dispatchEvent(new Event("change")); })()`)); err != nil {
		t.Fatal(err)
	}
	p.wait(`[...document.querySelectorAll("[data-table=live] tbody tr[data-seq]")].every((r) => r.dataset.type === "attest.refer") && document.querySelectorAll("[data-table=live] tbody tr[data-seq]").length > 0`)
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector("select[aria-label=type]"); s.value = ""; s.dispatchEvent(new Event("change")); })()`)); err != nil {
		t.Fatal(err)
	}
	cs := mcpSession(t, base, tok, "dashboard-live-1")
	callTool(t, cs, "memdisc", map[string]any{"query": "live"})
	var after dash.Overview
	getJSON(t, base, "/api/overview", tok, &after)
	p.wait(`!!document.querySelector('[data-table=live] tr[data-seq="` + strconv.FormatUint(after.LastSeq, 10) + `"][data-type="attest.discover"]')`)
	if p.text(`String(window.__sameDocument === true)`) != "true" {
		t.Errorf("live: the page reloaded to show the new event")
	}

	// Overview: the figures follow a new call without a reload.
	p.open("/", "overview")
	chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))
	for p.figure("events") != thousands(after.Events) {
		// The page may have loaded before the read models applied the
		// last call; the live stream brings it up to date.
		p.wait(`document.querySelector('[data-figure="events"]').textContent === ` + strconv.Quote(thousands(after.Events)))
	}
	callTool(t, cs, "memdisc", map[string]any{"query": "overview"})
	p.wait(`document.querySelector('[data-figure="events"]').textContent === ` + strconv.Quote(thousands(after.Events+1)))
	if p.text(`String(window.__sameDocument === true)`) != "true" {
		t.Errorf("overview: the page reloaded to show the new event")
	}
	if errs := b.Errors(); len(errs) > 0 {
		t.Fatalf("console errors: %q", errs)
	}
}
