package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/prometheus/common/expfmt"

	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/views/dash"
)

// TestDashboard_API checks the API of `serve --http` against `clumsies
// stats --json` on the same ledger, and its answers to bad requests.
func TestDashboard_API(t *testing.T) {
	dir := demoWorkspace(t)
	var st struct {
		Events   uint64 `json:"events"`
		Sessions int    `json:"sessions"`
		Rules    []struct {
			ID   string `json:"id"`
			Refs uint64 `json:"refs"`
		} `json:"rules"`
		Tools []struct {
			Tool   string `json:"tool"`
			Calls  uint64 `json:"calls"`
			Errors uint64 `json:"errors"`
			MaxUs  uint64 `json:"maxUs"`
		} `json:"tools"`
		Drafts int `json:"drafts"`
	}
	natsAddr := freeAddr(t)
	base := serveHTTP(t, dir, "--http", "127.0.0.1:0", "--nats-listen", natsAddr, "--nats-token", "metrics-reader")
	tok := testbin.HTTPToken(t, dir)
	// A call through the serve process, which owns the workspace: its
	// event is made durable by the owner's group commit.
	mcpSession(t, base, tok, "metrics-session")
	// A reader with a wrong token is refused: counted, not logged.
	if nc, err := nats.Connect("nats://"+natsAddr, nats.Token("wrong"), nats.NoReconnect()); err == nil {
		nc.Close()
		t.Fatal("the NATS listener let in a wrong token")
	}
	if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &st); err != nil {
		t.Fatal(err)
	}

	var ov dash.Overview
	getJSON(t, base, "/api/overview", tok, &ov)
	if ov.Events != st.Events || ov.Sessions != st.Sessions || ov.Drafts != st.Drafts || ov.Applied != ov.LastSeq {
		t.Errorf("overview: events %d sessions %d drafts %d (applied %d of %d), want stats' %d %d %d",
			ov.Events, ov.Sessions, ov.Drafts, ov.Applied, ov.LastSeq, st.Events, st.Sessions, st.Drafts)
	}
	var days uint64
	for _, d := range ov.Days {
		days += d.Events
	}
	if days != ov.Events {
		t.Errorf("overview: the days add up to %d events, want %d", days, ov.Events)
	}
	if len(ov.Tools) != len(st.Tools) {
		t.Fatalf("overview: %d tools, stats %d", len(ov.Tools), len(st.Tools))
	}
	for i, tool := range ov.Tools {
		want := st.Tools[i]
		if tool.Tool != want.Tool || tool.Calls != want.Calls || tool.Errors != want.Errors {
			t.Errorf("overview: tool %+v, stats %+v", tool, want)
		}
		if tool.P50Us == 0 || tool.P50Us > tool.P99Us || tool.P99Us > want.MaxUs {
			t.Errorf("overview: %s p50 %d p99 %d max %d: want 0 < p50 <= p99 <= max", tool.Tool, tool.P50Us, tool.P99Us, want.MaxUs)
		}
	}
	refs := make(map[string]uint64)
	for _, r := range st.Rules {
		refs[r.ID] = r.Refs
	}
	var rules dash.Rules
	getJSON(t, base, "/api/rules", tok, &rules)
	for _, it := range rules.Items {
		if it.Refs != refs[it.ID] {
			t.Errorf("rules: %s has %d refs, stats %d", it.ID, it.Refs, refs[it.ID])
		}
		var r dash.Rule
		getJSON(t, base, "/api/rules/"+url.PathEscape(it.ID), tok, &r)
		var sum, days uint64
		for _, c := range r.Constraints {
			sum += c.Refs
		}
		for _, d := range r.Days {
			days += d.Refs
		}
		if r.Refs != it.Refs || sum != r.Refs || days != r.Refs || len(r.Publishes) == 0 || r.Publishes[len(r.Publishes)-1].Hash != r.Hash {
			t.Errorf("rule %s: refs %d, by constraint %d, by day %d, list %d; publishes %+v (hash %s)", it.ID, r.Refs, sum, days, it.Refs, r.Publishes, r.Hash)
		}
		if r.Refs > 0 && (len(r.Applied) == 0 || len(r.Applied[0].Refs) == 0 || r.Applied[0].Refs[0].Reason == "") {
			t.Errorf("rule %s: applied %d times, but the page lists %+v", it.ID, r.Refs, r.Applied)
		}
	}
	var sessions dash.Sessions
	getJSON(t, base, "/api/sessions", tok, &sessions)
	for _, s := range sessions.Items {
		var one dash.Session
		getJSON(t, base, "/api/sessions/"+url.PathEscape(s.ID), tok, &one)
		if uint64(len(one.Timeline)) != s.Calls+s.Hooks {
			t.Errorf("session %s: %d timeline entries, want its %d calls and %d hook events", s.ID, len(one.Timeline), s.Calls, s.Hooks)
		}
	}
	var drafts dash.Drafts
	getJSON(t, base, "/api/drafts", tok, &drafts)
	if len(drafts.Items) != st.Drafts {
		t.Errorf("drafts: %d, stats %d", len(drafts.Items), st.Drafts)
	}

	for _, path := range []string{"/api/rules/p-nope", "/api/sessions/nope", "/api/nothing", "/nothing"} {
		resp := get(t, base+path, tok)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || len(body) < 10 {
			t.Errorf("GET %s: %d %q, want 404 saying why", path, resp.StatusCode, body)
		}
	}
	for _, path := range []string{"/", "/rules", "/live", "/assets/app.js", "/assets/app.css"} {
		resp := get(t, base+path, tok)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d, want 200", path, resp.StatusCode)
		}
	}
}

// TestDashboard_Metrics parses /metrics with the Prometheus text parser and
// checks the ledger's figures against stats.
func TestDashboard_Metrics(t *testing.T) {
	dir := demoWorkspace(t)
	var st struct {
		Events            uint64 `json:"events"`
		Sessions          int    `json:"sessions"`
		SessionsHooksOnly int    `json:"sessionsHooksOnly"`
		Drafts            int    `json:"drafts"`
		Tools             []struct {
			Tool   string `json:"tool"`
			Calls  uint64 `json:"calls"`
			Errors uint64 `json:"errors"`
		} `json:"tools"`
		Rules []struct {
			ID   string `json:"id"`
			Path string `json:"path"`
			Refs uint64 `json:"refs"`
		} `json:"rules"`
	}
	natsAddr := freeAddr(t)
	base := serveHTTP(t, dir, "--http", "127.0.0.1:0", "--nats-listen", natsAddr, "--nats-token", "metrics-reader")
	tok := testbin.HTTPToken(t, dir)
	// A call through the serve process, which owns the workspace: its
	// event is made durable by the owner's group commit.
	mcpSession(t, base, tok, "metrics-session")
	// A reader with a wrong token is refused: counted, not logged.
	if nc, err := nats.Connect("nats://"+natsAddr, nats.Token("wrong"), nats.NoReconnect()); err == nil {
		nc.Close()
		t.Fatal("the NATS listener let in a wrong token")
	}
	if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &st); err != nil {
		t.Fatal(err)
	}

	// An open live stream is counted.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	stream, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()

	resp := get(t, base+"/metrics", tok)
	defer resp.Body.Close()
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	value := func(name string, labels ...string) float64 {
		t.Helper()
		f, ok := fams[name]
		if !ok {
			t.Fatalf("/metrics has no %s", name)
		}
	metrics:
		for _, m := range f.Metric {
			for i := 0; i < len(labels); i += 2 {
				found := false
				for _, l := range m.Label {
					found = found || l.GetName() == labels[i] && l.GetValue() == labels[i+1]
				}
				if !found {
					continue metrics
				}
			}
			switch {
			case m.Counter != nil:
				return m.Counter.GetValue()
			case m.Gauge != nil:
				return m.Gauge.GetValue()
			case m.Histogram != nil:
				return float64(m.Histogram.GetSampleCount())
			}
		}
		t.Fatalf("/metrics has no %s %v", name, labels)
		return 0
	}
	for _, tool := range st.Tools {
		if got := value("clumsies_tool_calls_total", "tool", tool.Tool, "outcome", "ok"); got != float64(tool.Calls-tool.Errors) {
			t.Errorf("%s ok calls: %v, stats %d", tool.Tool, got, tool.Calls-tool.Errors)
		}
		if got := value("clumsies_tool_calls_total", "tool", tool.Tool, "outcome", "error"); got != float64(tool.Errors) {
			t.Errorf("%s error calls: %v, stats %d", tool.Tool, got, tool.Errors)
		}
		if got := value("clumsies_tool_duration_seconds", "tool", tool.Tool); got != float64(tool.Calls) {
			t.Errorf("%s duration histogram counts %v calls, stats %d", tool.Tool, got, tool.Calls)
		}
	}
	last := value("clumsies_ledger_events_total")
	if last < float64(st.Events) || value("clumsies_projector_applied_seq") > last || value("clumsies_projector_lag_events") < 0 {
		t.Errorf("ledger %v events, applied %v, lag %v; stats %d", last, value("clumsies_projector_applied_seq"), value("clumsies_projector_lag_events"), st.Events)
	}
	for name, want := range map[string]float64{"clumsies_sse_clients": 1, "clumsies_owner": 1, "clumsies_read_models_up": 1, "clumsies_ledger_sync_always": 1} {
		if got := value(name); got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	// The serve process owns the workspace in the default durability: its
	// group commit made the memsetup durable, one fsync for one or more
	// appends.
	if rounds, synced := value("clumsies_ledger_fsyncs_total"), value("clumsies_ledger_synced_appends_total"); rounds < 1 || synced < rounds {
		t.Errorf("group commit: %v fsyncs for %v appends", rounds, synced)
	}
	if got := value("clumsies_nats_refused_total"); got != 1 {
		t.Errorf("clumsies_nats_refused_total: %v, want 1 (the wrong token)", got)
	}
	for _, name := range []string{"go_goroutines", "process_resident_memory_bytes", "clumsies_owner_changes_total"} {
		if _, ok := fams[name]; !ok {
			t.Errorf("/metrics has no %s", name)
		}
	}
	// The usage figures agree with stats --json.
	var reports, rejections uint64
	for _, tool := range st.Tools {
		switch tool.Tool {
		case "agentreport":
			reports = tool.Calls - tool.Errors
		case "agentrejected":
			rejections = tool.Calls - tool.Errors
		}
	}
	if got := value("clumsies_reports_total"); got != float64(reports) || got < 1 {
		t.Errorf("clumsies_reports_total: %v, want %d (agentreport's successful calls)", got, reports)
	}
	if got := value("clumsies_rejections_total"); got != float64(rejections) {
		t.Errorf("clumsies_rejections_total: %v, want %d (agentrejected's successful calls)", got, rejections)
	}
	for name, want := range map[string]float64{
		"clumsies_open_drafts": float64(st.Drafts), "clumsies_rules_published": float64(len(st.Rules)),
		"clumsies_otel_dropped_calls_total": 0, "clumsies_rule_refs_other_total": 0,
	} {
		if got := value(name); got != want {
			t.Errorf("%s: %v, want %v (stats --json)", name, got, want)
		}
	}
	if got := value("clumsies_sessions_total", "kind", "set_up"); got != float64(st.Sessions) || got < 1 {
		t.Errorf("clumsies_sessions_total{kind=set_up}: %v, stats %d", got, st.Sessions)
	}
	if got := value("clumsies_sessions_total", "kind", "hooks_only"); got != float64(st.SessionsHooksOnly) {
		t.Errorf("clumsies_sessions_total{kind=hooks_only}: %v, stats %d", got, st.SessionsHooksOnly)
	}
	for _, r := range st.Rules {
		if got := value("clumsies_rule_refs_total", "rule", r.ID, "path", r.Path); got != float64(r.Refs) {
			t.Errorf("clumsies_rule_refs_total{rule=%s}: %v, stats %d", r.ID, got, r.Refs)
		}
	}
	if got := value("clumsies_build_info"); got != 1 {
		t.Errorf("clumsies_build_info: %v, want 1", got)
	}
	checkGrafana(t, false, func(name string) bool { _, ok := fams[name]; return ok })
}

// checkGrafana checks that docs/grafana-dashboard.json parses as a
// dashboard and that every clumsies metric its panels query is one
// /metrics exposes: a workspace's, or with hub the hub's (the
// clumsies_hub_ metrics, which a workspace's check leaves to the hub's).
func checkGrafana(t *testing.T, hub bool, exposed func(name string) bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "grafana-dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Title  string `json:"title"`
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(b, &d); err != nil || d.Title == "" || len(d.Panels) == 0 {
		t.Fatalf("docs/grafana-dashboard.json: %v (title %q, %d panels)", err, d.Title, len(d.Panels))
	}
	name := regexp.MustCompile(`clumsies_[a-z_]+`)
	queried := 0
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q queries nothing", p.Title)
		}
		for _, tg := range p.Targets {
			for _, m := range name.FindAllString(tg.Expr, -1) {
				if strings.HasPrefix(m, "clumsies_hub_") != hub {
					continue
				}
				queried++
				base := m
				for _, suffix := range []string{"_bucket", "_count", "_sum"} {
					if !exposed(m) {
						base = strings.TrimSuffix(base, suffix)
					}
				}
				if !exposed(base) {
					t.Errorf("panel %q queries %s, which /metrics does not expose", p.Title, m)
				}
			}
		}
	}
	if queried == 0 {
		t.Errorf("the dashboard queries no clumsies metric of this side (hub %v)", hub)
	}
}

// startUI starts `clumsies ui` and returns the URL it prints and a func
// that stops it (also called when the test ends).
func startUI(tb testing.TB, dir string, env []string, args ...string) (string, func()) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, binary, append([]string{"ui", "--workspace", dir}, args...)...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = io.Discard
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	stop := func() {
		cancel()
		cmd.Wait()
	}
	tb.Cleanup(stop)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "http://") {
		tb.Fatalf("clumsies ui printed %q (%v), want its URL", line, err)
	}
	return strings.TrimSuffix(strings.TrimSpace(line), "/"), stop
}

// TestUI_Command checks `clumsies ui`: it prints its URL, serves the
// pages, the API, /events and /metrics, refuses a non-loopback address
// without a token and stray arguments, and with a token lets a browser in
// through ?token= and a cookie.
func TestUI_Command(t *testing.T) {
	dir := demoWorkspace(t)
	base, stopUI := startUI(t, dir, nil, "--addr", "127.0.0.1:0")
	tok := testbin.HTTPToken(t, dir)
	for _, path := range []string{"/", "/api/overview", "/metrics"} {
		resp := get(t, base+path, tok)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("ui: GET %s: %d, want 200", path, resp.StatusCode)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/api/overview", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("ui: POST /api/overview: %d, want 404", resp.StatusCode)
	}

	// A serve started after ui reads through ui, the owner: its pages
	// come over the owner's socket.
	other := serveHTTP(t, dir, "--http", "127.0.0.1:0")
	var mine, theirs dash.Overview
	getJSON(t, base, "/api/overview", tok, &mine)
	getJSON(t, other, "/api/overview", tok, &theirs)
	if theirs.Events != mine.Events || theirs.WorkspaceID != mine.WorkspaceID || len(theirs.Tools) != len(mine.Tools) {
		t.Errorf("overview through the owner: %+v, from the owner: %+v", theirs, mine)
	}
	resp = get(t, other+"/metrics", tok)
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(resp.Body)
	resp.Body.Close()
	if err != nil || fams["clumsies_owner"].GetMetric()[0].GetGauge().GetValue() != 0 || fams["clumsies_tool_calls_total"] == nil {
		t.Errorf("/metrics of a serve that is not the owner: %v; want clumsies_owner 0 and the tool calls", err)
	}

	// When ui, the owner, stops, the serve takes over, and says so.
	stopUI()
	deadline := time.Now().Add(time.Minute)
	for {
		resp := get(t, other+"/metrics", tok)
		fams, err := p.TextToMetricFamilies(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		owner := fams["clumsies_owner"].GetMetric()[0].GetGauge().GetValue()
		changes := fams["clumsies_owner_changes_total"].GetMetric()[0].GetCounter().GetValue()
		if owner == 1 && changes >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the owner stopped: clumsies_owner %v, clumsies_owner_changes_total %v; want 1 and at least 1", owner, changes)
		}
		time.Sleep(100 * time.Millisecond)
	}

	if r := run(t, dir, "ui", "--addr", "0.0.0.0:0", "--no-token"); r.code != 2 || !strings.Contains(r.stderr, "--token") {
		t.Errorf("ui --addr 0.0.0.0:0 --no-token: exit %d %q, want 2 asking for --token", r.code, r.stderr)
	}
	if r := run(t, dir, "ui", "--addr", "nope"); r.code != 2 || !strings.Contains(r.stderr, "--addr") {
		t.Errorf("ui --addr nope: exit %d %q, want 2 naming --addr", r.code, r.stderr)
	}
	if r := run(t, dir, "ui", "stray"); r.code != 2 {
		t.Errorf("ui stray: exit %d %q, want 2", r.code, r.stderr)
	}

	tokened, _ := startUI(t, dir, []string{"CLUMSIES_TOKEN=s3cret"}, "--addr", "127.0.0.1:0")
	for _, path := range []string{"/", "/api/overview", "/metrics", "/events"} {
		resp := get(t, tokened+path, "")
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("ui with a token: GET %s without it: %d, want 401", path, resp.StatusCode)
		}
	}
	if resp := get(t, tokened+"/api/overview", "s3cret"); resp.StatusCode != http.StatusOK {
		t.Errorf("ui with a token: GET /api/overview with it: %d, want 200", resp.StatusCode)
	}
	// A browser: ?token= once sets the cookie and leaves the URL.
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err = noFollow.Get(tokened + "/rules?token=s3cret")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cookies := resp.Cookies()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/rules" || len(cookies) != 1 || !cookies[0].HttpOnly {
		t.Fatalf("ui: GET /rules?token=: %d to %q with cookies %v, want 303 to /rules with an HttpOnly cookie", resp.StatusCode, resp.Header.Get("Location"), cookies)
	}
	req, _ = http.NewRequest(http.MethodGet, tokened+"/api/rules", nil)
	req.AddCookie(cookies[0])
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("ui: GET /api/rules with the cookie: %v %v, want 200", resp.StatusCode, err)
	}
	if resp, _ := noFollow.Get(tokened + "/?token=wrong"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("ui: GET /?token=wrong: %d, want 401", resp.StatusCode)
	}
}
