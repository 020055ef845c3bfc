package main_test

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/common/expfmt"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/internal/browser"
	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/views/dash"
)

// adminToken reads the hub's admin token from its folder.
func adminToken(tb testing.TB, hp *hubProcess) string {
	tb.Helper()
	var token string
	filepath.WalkDir(hp.dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "admin.token" {
			b, _ := os.ReadFile(path)
			token = strings.TrimSpace(string(b))
		}
		return nil
	})
	if token == "" {
		tb.Fatalf("no admin.token under %s", hp.dir)
	}
	return token
}

// TestHub_Dashboard checks the hub's dashboard for a team: the nodes of
// the member token's teams with their link and sourcing, /metrics for the
// admin, and the page in a real browser with the team's figures.
func TestHub_Dashboard(t *testing.T) {
	hp := newHub(t)
	a, b := newWorkspace(t), newWorkspace(t)
	hp.join(t, a, "blue", "ann")
	hp.join(t, b, "red", "bob")
	agentSession(t, a, "hub-dash-1", 2)
	agentSession(t, b, "hub-dash-2", 1)
	_, acl := serve(t, a) // an owner links the workspace to the hub
	member := strings.TrimSpace(mustRun(t, hp.dir, "hub", "token", "--name", "cy", "--team", "blue"))
	deadline := time.Now().Add(time.Minute)
	for hubStats(t, hp, "--url", hp.api, "--token", member).Totals.Refs < 2 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}

	// The member sees team blue's node only, linked.
	var nodes []hubwire.TeamNode
	for {
		var err error
		if nodes, err = hp.client(member).TeamNodes(context.Background()); err != nil {
			t.Fatal(err)
		}
		if len(nodes) == 1 && nodes[0].Link.Up && nodes[0].HubSeq > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if len(nodes) != 1 || nodes[0].Team != "blue" || nodes[0].Member != "ann" || !nodes[0].Link.Up || nodes[0].HubSeq == 0 {
		t.Fatalf("team nodes for a blue member: %+v, want ann's node of team blue, linked, with events applied", nodes)
	}
	_, err := hp.client("wrong").TeamNodes(context.Background())
	wantRefused(t, err, hubwire.CodeUnauthorized, "team nodes with a wrong token")

	// /metrics: the admin's only.
	if code := httpGet(t, hp.api+"/metrics", member); code != http.StatusUnauthorized {
		t.Errorf("/metrics with a member token: %d, want 401", code)
	}
	req, _ := http.NewRequest(http.MethodGet, hp.api+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+adminToken(t, hp))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("parse the hub's /metrics: %v", err)
	}
	if f := fams["clumsies_hub_node_link_up"]; f == nil || len(f.Metric) != 2 {
		t.Errorf("clumsies_hub_node_link_up: %v, want one per node (2)", f)
	}
	// The registry's readability has a name that does not read as a
	// count of nodes.
	if f := fams["clumsies_hub_nodes_scrape_success"]; f == nil || len(f.Metric) != 1 || f.Metric[0].GetGauge().GetValue() != 1 {
		t.Errorf("clumsies_hub_nodes_scrape_success: %v, want one gauge at 1", f)
	}
	if fams["clumsies_hub_nodes_up"] != nil {
		t.Errorf("the hub's /metrics still has clumsies_hub_nodes_up, which reads as a count of nodes")
	}
	for _, name := range []string{"clumsies_hub_node_applied_seq", "clumsies_build_info", "go_goroutines", "process_cpu_seconds_total"} {
		if fams[name] == nil {
			t.Errorf("the hub's /metrics has no %s", name)
		}
	}
	checkGrafana(t, true, func(name string) bool { return fams[name] != nil })

	// The page, in a browser, with the member's token.
	stats, err := hp.client(member).Stats(context.Background(), hubwire.StatsQuery{Period: "daily", Days: 90})
	if err != nil {
		t.Fatal(err)
	}
	pg := browse(t, hp.api)
	pg.open("/?token="+member, "team")
	if got := pg.figure("refs"); got != thousands(stats.Totals.Refs) {
		t.Errorf("hub page: refs %q, want %d", got, stats.Totals.Refs)
	}
	if got := pg.text(`document.querySelector('[data-member="ann"] [data-field=refs]').textContent`); got != thousands(stats.Totals.Refs) {
		t.Errorf("hub page: ann's refs %q, want %d", got, stats.Totals.Refs)
	}
	if stats.Coverage.Constraints == 0 {
		t.Errorf("hub stats: no published constraints counted for the coverage")
	}
	want := fmt.Sprintf("%s of %s of their constraints", thousands(stats.Coverage.ConstraintsReferred), thousands(stats.Coverage.Constraints))
	if got := pg.text(`document.querySelector('[data-field="constraint-coverage"]').textContent`); !strings.HasPrefix(got, want) {
		t.Errorf("hub page: constraint coverage %q, want %q", got, want)
	}
	// The daily trend has a point for each of the 90 days, quiet ones
	// included, and the chart a slot (two bars) for each.
	if len(stats.Trend) != 90 {
		t.Errorf("hub stats: %d trend points, want one for each of the 90 days", len(stats.Trend))
	}
	if n := pg.number(`document.querySelector("svg.chart").querySelectorAll("rect").length`); n != 2*90 {
		t.Errorf("hub page: the trend chart has %d bars, want 180 (90 days, 2 series)", n)
	}
	if n := pg.number(`document.querySelectorAll("[data-node]").length`); n != 1 {
		t.Errorf("hub page: %d nodes shown, want team blue's 1", n)
	}
	if loc := pg.text(`location.search`); loc != "" {
		t.Errorf("hub page: the token stayed in the address (%q)", loc)
	}
	// The header says whose token the page reads with, and when it was
	// drawn in UTC, as the page's dates are.
	pg.wait(`document.getElementById("who").dataset.who === "cy"`)
	if who := pg.text(`document.getElementById("who").textContent`); who != "cy · team blue" {
		t.Errorf("hub page: the header names the token's holder %q, want cy · team blue", who)
	}
	if st := pg.text(`document.getElementById("status").textContent + " | " + document.getElementById("status").title`); !regexp.MustCompile(`^updated \d\d:\d\d:\d\d UTC \| `).MatchString(st) || strings.Contains(st, "15 s") {
		t.Errorf("hub page: the status reads %q, want the time of the update in UTC and no promise of a 15 s refresh", st)
	}
	hubPhoneLayout(t, pg)
	hubAccessible(t, pg)

	// A ref made in team blue's workspace reaches the open page without a
	// reload, through /api/team/events (the page's own poll is every two
	// minutes; this waits at most one). The change is made once the
	// page's stream is open: the stream tells of changes after it opened.
	pg.wait(`document.body.dataset.stream === "on"`)
	setup(t, acl, "hub-dash-live")
	call(t, acl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": workflowID(t, acl), "constraintId": "Steps/1"}}})
	pg.wait(`document.querySelector('[data-figure="refs"]').textContent === ` + strconv.Quote(thousands(stats.Totals.Refs+1)))
	// That ref was claimed without loading the workflow: the page's
	// evidence counts one more claim without evidence.
	pg.wait(`document.querySelector('[data-figure="unsupported"]').textContent === ` + strconv.Quote(thousands(stats.Evidence.Unsupported+1)))
}

// TestHub_DashboardReview reviews a team draft from the hub's dashboard
// in a browser: a member without review rights sees the queue with the
// draft's diff against the revision it was made on, and no actions; a
// reviewer sees the same diff, and Accept asks to confirm before the hub
// accepts it.
func TestHub_DashboardReview(t *testing.T) {
	hp := newHub(t)
	tree := writeTree(t, map[string]string{"rules/team/STYLE.md": teamRule})
	id := pushTree(t, hp, tree, "red").Published[0].ID
	a := newWorkspace(t)
	hp.join(t, a, "red", "ann")
	_, acl := serve(t, a)
	setup(t, acl, "a-1")
	waitFor(t, "the team rule in A", func() bool { return discItem(t, acl, "team/STYLE.md") != nil })
	stage(t, acl, id, teamRule+"- and log them once\n")
	var rs []reviewRow
	waitFor(t, "the draft in the hub's review queue", func() bool { rs = reviews(t, hp); return len(rs) == 1 })
	member := strings.TrimSpace(mustRun(t, hp.dir, "hub", "token", "--name", "cy", "--team", "red"))
	reviewer := strings.TrimSpace(mustRun(t, hp.dir, "hub", "token", "--name", "di", "--team", "red", "--reviewer"))

	// The API the page reads: who may review, and the draft's diff
	// against its base revision.
	for _, who := range []struct {
		token, name string
		reviewer    bool
	}{{member, "cy", false}, {reviewer, "di", true}} {
		var me hubwire.Me
		getJSON(t, hp.api, "/api/me", who.token, &me)
		if me.Name != who.name || me.Reviewer != who.reviewer || len(me.Teams) != 1 || me.Teams[0] != "red" {
			t.Errorf("/api/me of %s: %+v, want team red and reviewer %v", who.name, me, who.reviewer)
		}
	}
	var d hubwire.ReviewDiff
	getJSON(t, hp.api, "/api/reviews/"+rs[0].ID+"/diff", member, &d)
	if !d.BaseFound || d.BaseRevision != rs[0].BaseRevision || !strings.HasPrefix(d.Diff, "--- a/team/STYLE.md\n+++ b/team/STYLE.md\n") ||
		!strings.Contains(d.Diff, "\n+- and log them once\n") {
		t.Errorf("/api/reviews/%s/diff: %+v, want the added line against base revision %d", rs[0].ID, d, rs[0].BaseRevision)
	}

	pg := browse(t, hp.api)
	const added = `[...document.querySelectorAll("[data-review] [data-diff] div.a")].map((d) => d.textContent).join("\n")`

	// A member sees the queue and the diff, and no action.
	pg.open("/?token="+member, "team")
	pg.wait(`document.querySelectorAll("[data-review]").length === 1 && document.querySelector("[data-reviews]").dataset.ready !== undefined`)
	if got := pg.text(added); got != "+- and log them once" {
		t.Errorf("member: the diff adds %q, want the one line the draft adds", got)
	}
	if n := pg.number(`document.querySelectorAll("[data-review] button").length`); n != 0 {
		t.Errorf("member: %d review buttons shown to a member who cannot review", n)
	}
	if pg.number(`document.querySelectorAll("[data-review] [data-no-review]").length`) != 1 {
		t.Errorf("member: the queue does not say who can review")
	}

	// A reviewer sees the diff; Accept asks first, then the hub accepts.
	pg.open("/?token="+reviewer, "team")
	pg.wait(`document.querySelectorAll("[data-review]").length === 1 && document.querySelector("[data-reviews]").dataset.ready !== undefined`)
	if got := pg.text(added); got != "+- and log them once" {
		t.Errorf("reviewer: the diff adds %q, want the one line the draft adds", got)
	}
	if err := chromedp.Do(pg.ctx, chromedp.SendKeys(chromedp.CSS(`[data-review] input[aria-label=reason]`), "not yet"),
		chromedp.Click(chromedp.CSS(`[data-review] button[data-act=accept]`))); err != nil {
		t.Fatal(err)
	}
	pg.wait(`!document.querySelector("[data-review] [data-confirm]").hidden`)
	if got := reviews(t, hp); len(got) != 1 || got[0].Status != "in_review" {
		t.Fatalf("one click on Accept changed the review: %+v", got)
	}

	// A change of the team redraws the page under the open confirmation:
	// it stays open with the focus on it, and the reason typed stays.
	pg.wait(`document.body.dataset.stream === "on"`)
	loaded, refs := pg.text(`document.getElementById("app").dataset.loaded`), pg.figure("refs")
	call(t, acl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": workflowID(t, acl), "constraintId": "Steps/1"}}})
	pg.wait(`document.getElementById("app").dataset.loaded !== ` + strconv.Quote(loaded) +
		` && document.querySelector('[data-figure="refs"]').textContent !== ` + strconv.Quote(refs))
	if pg.text(`String(document.querySelector("[data-review] [data-confirm]").hidden)`) != "false" {
		t.Fatalf("the page's redraw after a change of the team closed the open confirmation")
	}
	pg.wait(`document.activeElement.dataset.act === "confirm"`) // the focus stays on the confirmation
	if got := pg.text(`document.querySelector("[data-review] input[aria-label=reason]").value`); got != "not yet" {
		t.Errorf("after the redraw the reason to decline reads %q, want the one typed", got)
	}
	if err := chromedp.Do(pg.ctx, chromedp.Click(chromedp.CSS(`[data-review] button[data-act=confirm]`))); err != nil {
		t.Fatal(err)
	}
	// The queue lists the reviews still open.
	waitFor(t, "the review accepted", func() bool { return len(reviews(t, hp)) == 0 })
	pg.wait(`document.querySelectorAll("[data-review]").length === 0`)

	// Decline needs a reason: the button is disabled until one is typed,
	// and Enter in the reason declines.
	stage(t, acl, id, teamRule+"- and never log them\n")
	waitFor(t, "a second draft in the hub's review queue", func() bool { return len(reviews(t, hp)) == 1 })
	pg.wait(`document.querySelectorAll("[data-review] [data-act=decline]").length === 1`)
	if pg.text(`String(document.querySelector("[data-review] [data-act=decline]").disabled)`) != "true" {
		t.Errorf("Decline is enabled with no reason typed")
	}
	if err := chromedp.Do(pg.ctx, chromedp.SendKeys(chromedp.CSS(`[data-review] input[aria-label=reason]`), "not needed")); err != nil {
		t.Fatal(err)
	}
	if pg.text(`String(document.querySelector("[data-review] [data-act=decline]").disabled)`) != "false" {
		t.Errorf("Decline stays disabled once a reason is typed")
	}
	if err := chromedp.Do(pg.ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the review declined by Enter", func() bool { return len(reviews(t, hp)) == 0 })
	pg.wait(`document.querySelectorAll("[data-review]").length === 0`)
	if errs := pg.b.Errors(); len(errs) > 0 {
		t.Fatalf("console errors: %q", errs)
	}
}

// TestHub_DashboardEightTabs opens the hub's page in eight tabs of one
// Chromium: they share one stream of the team's changes, so the eighth
// loads and follows a new ref without a reload.
func TestHub_DashboardEightTabs(t *testing.T) {
	hp := newHub(t)
	a := newWorkspace(t)
	hp.join(t, a, "blue", "ann")
	_, acl := serve(t, a)
	member := strings.TrimSpace(mustRun(t, hp.dir, "hub", "token", "--name", "cy", "--team", "blue"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	br, err := browser.Start(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	tabs, _ := openTabs(t, br, hp.api, "/?token="+member, "team", 8)
	last := tabs[7]
	last.text(`String(window.__sameDocument = true)`)
	before := last.figure("refs")
	setup(t, acl, "hub-tabs")
	call(t, acl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": workflowID(t, acl), "constraintId": "Steps/1"}}})
	last.wait(`document.querySelector('[data-figure="refs"]').textContent !== ` + strconv.Quote(before))
	if last.text(`String(window.__sameDocument === true)`) != "true" {
		t.Errorf("tab 8: the page reloaded to show the new ref")
	}
}

// TestHub_DashboardToken checks what the hub's page does with ?token=: a
// token it does not know gets 401 and no cookie, a member's is kept in an
// HttpOnly cookie, Secure once the hub's public URL is https; and every
// answer carries nosniff, frame-ancestors 'none' and a Referrer-Policy.
func TestHub_DashboardToken(t *testing.T) {
	hp := newHub(t)
	member := strings.TrimSpace(mustRun(t, hp.dir, "hub", "token", "--name", "cy", "--team", "blue"))
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	open := func(path string) *http.Response {
		t.Helper()
		resp, err := noFollow.Get(hp.api + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := open("/?token=not-a-token"); resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) != 0 {
		t.Errorf("/?token= of a token the hub does not know: %d, cookies %v; want 401 and none", resp.StatusCode, resp.Cookies())
	}
	resp := open("/?token=" + member)
	if c := resp.Cookies(); resp.StatusCode != http.StatusSeeOther || len(c) != 1 || c[0].Value != member || !c[0].HttpOnly || c[0].Secure {
		t.Errorf("/?token= of a member: %d, cookies %v; want 303 and the token in an HttpOnly cookie, not Secure over http", resp.StatusCode, c)
	}
	for _, path := range []string{"/", "/assets/app.js", "/api/health", "/api/stats"} {
		h := open(path).Header
		if h.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") || h.Get("Referrer-Policy") == "" {
			t.Errorf("%s: X-Content-Type-Options %q, Content-Security-Policy %q, Referrer-Policy %q; want nosniff, frame-ancestors 'none' and a policy",
				path, h.Get("X-Content-Type-Options"), h.Get("Content-Security-Policy"), h.Get("Referrer-Policy"))
		}
	}

	// Behind an https front (http_url), the cookie is Secure.
	hp.stop()
	conf := filepath.Join(hp.dir, "hub.toml")
	b, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conf, []byte(strings.Replace(string(b), `# http_url = "https://hub.example"`, `http_url = "https://hub.example"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	hp.start(t)
	if c := open("/?token=" + member).Cookies(); len(c) != 1 || !c[0].Secure {
		t.Errorf("/?token= of a member at a hub whose public URL is https: cookies %v, want one Secure", c)
	}
}

// hubPhoneLayout checks the hub's page on a phone (390 px), then goes
// back to the laptop's width: the search box is whole on the screen, the
// page no wider than it, a workspace id on one line and a rule's path
// cell wide enough to read.
func hubPhoneLayout(t *testing.T, pg *page) {
	t.Helper()
	if err := chromedp.Do(pg.ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := chromedp.Do(pg.ctx, chromedp.EmulateViewport(1366, 768)); err != nil {
			t.Fatal(err)
		}
	}()
	pg.open("/", "team")
	if out := pg.text(`((r) => r.left < 0 || r.right > document.documentElement.clientWidth ? r.left.toFixed(0) + " to " + r.right.toFixed(0) : "")(document.querySelector("form[role=search] input").getBoundingClientRect())`); out != "" {
		t.Errorf("hub on a phone: the search box spans %s px, off a 390 px screen", out)
	}
	if over := pg.number(`document.documentElement.scrollWidth - document.documentElement.clientWidth`); over > 1 {
		t.Errorf("hub on a phone: the page is %d px wider than the screen", over)
	}
	const lines = `((el) => { const r = document.createRange(); r.selectNodeContents(el); return new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size; })`
	if n := pg.number(`Math.max(0, ...[...document.querySelectorAll("#app td.mono")].map(` + lines + `))`); n != 1 {
		t.Errorf("hub on a phone: a workspace id takes %d lines, want one", n)
	}
	if n := pg.number(`document.querySelectorAll("#app td.path").length`); n == 0 {
		t.Errorf("hub on a phone: no rule's path in a table")
	}
	if w := pg.number(`Math.min(...[...document.querySelectorAll("#app td.path")].map((td) => td.getBoundingClientRect().width))`); w < 130 {
		t.Errorf("hub on a phone: a rule's path cell is %d px wide, want at least 130", w)
	}
}

// hubAccessible runs axe-core on the hub's page in the light and the
// dark scheme: no rule rated serious or critical is broken, and no
// content is left outside a landmark.
func hubAccessible(t *testing.T, pg *page) {
	t.Helper()
	for _, scheme := range []string{"dark", "light"} {
		if err := browser.Scheme(pg.ctx, scheme); err != nil {
			t.Fatal(err)
		}
		pg.open("/", "team")
		vs, err := browser.Axe(pg.ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			if v.Serious() || v.ID == "region" {
				t.Errorf("hub page, %s scheme: %s", scheme, v)
			}
		}
	}
}

// TestHub_DashboardTeamRules refers to a rule of the team's catalog from
// a joined workspace: the workspace's /api/rules lists it among its rules,
// marked team, with the team catalog's path and its ref, and its page
// answers with the same.
func TestHub_DashboardTeamRules(t *testing.T) {
	hp := newHub(t)
	id := pushTree(t, hp, writeTree(t, map[string]string{"rules/team/STYLE.md": teamRule}), "red").Published[0].ID
	a := newWorkspace(t)
	hp.join(t, a, "red", "ann")
	base := serveHTTP(t, a, "--http", "127.0.0.1:0")
	tok := testbin.HTTPToken(t, a)
	cs := mcpSession(t, base, tok, "team-rules-1")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "memref", Arguments: map[string]any{
			"refs": []any{map[string]any{"ruleId": id, "constraintId": "Errors/1"}}}})
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("memref of the team rule %s: %+v", id, res)
		}
		time.Sleep(200 * time.Millisecond)
	}
	var rules dash.Rules
	getJSON(t, base, "/api/rules", tok, &rules)
	var row dash.RuleRow
	for _, r := range rules.Items {
		if r.ID == id {
			row = r
		}
	}
	if row.Source != dash.SourceTeam || row.Path != "team/STYLE.md" || row.Refs != 1 {
		t.Errorf("/api/rules: the team rule's row is %+v, want team/STYLE.md, source team, 1 ref", row)
	}
	var rule dash.Rule
	getJSON(t, base, "/api/rules/"+id, tok, &rule)
	if rule.Source != dash.SourceTeam || rule.Path != "team/STYLE.md" || rule.Refs != 1 {
		t.Errorf("/api/rules/%s: source %q, path %q, %d refs; want team, team/STYLE.md, 1", id, rule.Source, rule.Path, rule.Refs)
	}
}
