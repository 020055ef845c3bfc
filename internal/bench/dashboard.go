package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/views/dash"
	"github.com/clumsies/clumsies/workspace"
)

// benchDashboard measures the dashboard's API and pages on a ledger of a
// million events and a catalog of 10,000 rules: `clumsies ui` on the
// workspace, each endpoint asked for in turn. Baseline: GET /healthz of
// the same server, which does no work.
func benchDashboard(ctx context.Context, b *bench) error {
	rules, n, rounds := 10_000, 1_000_000, 50
	if b.quick {
		rules, n, rounds = 1000, 50_000, 20
	}
	ws, _, err := workspace.Init(b.tempDir("dashboard"))
	if err != nil {
		return err
	}
	if err := writeRules(ws.ContentRoot(), rules); err != nil {
		return err
	}
	if out, err := exec.CommandContext(ctx, b.bin, "publish", "--workspace", ws.Root, "--sync", "interval").CombinedOutput(); err != nil {
		return fmt.Errorf("publish: %v: %s", err, out)
	}
	var st struct {
		Rules []struct {
			ID string `json:"id"`
		} `json:"rules"`
	}
	out, err := exec.CommandContext(ctx, b.bin, "stats", "--workspace", ws.Root, "--json").Output()
	if err != nil {
		return fmt.Errorf("stats: %w", err)
	}
	if err := json.Unmarshal(out, &st); err != nil || len(st.Rules) < rules {
		return fmt.Errorf("stats: %d rules (%v), want at least %d", len(st.Rules), err, rules)
	}
	ids := make([]string, len(st.Rules))
	for i, r := range st.Rules {
		ids[i] = r.ID
	}
	fillStart := time.Now()
	if err := fillDashboard(ctx, b, ws, ids, n); err != nil {
		return err
	}
	fillTook := time.Since(fillStart)

	startAt := time.Now()
	base, stop, err := startUI(ctx, b.bin, ws.Root)
	if err != nil {
		return err
	}
	defer stop()
	var ov dash.Overview
	for {
		if err := getJSONBench(ctx, base+"/api/overview", &ov); err != nil {
			return err
		}
		if ov.Applied >= ov.LastSeq && ov.LastSeq >= uint64(n) {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	caughtUp := time.Since(startAt)
	session := ov.Recent[0].ID
	endpoints := []string{
		"/healthz", "/api/overview", "/api/rules", "/api/rules/" + url.PathEscape(ov.MostApplied[0].ID),
		"/api/sessions", "/api/sessions/" + url.PathEscape(session), "/api/drafts", "/", "/assets/app.js",
	}
	lat := make(map[string][]time.Duration)
	size := make(map[string]int)
	for r := 0; r < rounds; r++ {
		for _, e := range endpoints {
			start := time.Now()
			body, err := getBench(ctx, base+e)
			if err != nil {
				return err
			}
			lat[e] = append(lat[e], time.Since(start))
			size[e] = len(body)
		}
	}
	b.printf("## The dashboard (issue: dashboard and metrics)\n\n`clumsies ui` on a workspace of %d rules and %d events (70%% refer over every rule, 5,000 sessions, 90 days; filled in %s; the read models caught up %s after start). %d GETs of each endpoint, interleaved, over loopback HTTP, whole body read. Baseline: GET /healthz of the same server.\n\n", rules, n, fillTook.Round(time.Second), caughtUp.Round(time.Millisecond), rounds)
	b.printf("| endpoint | body KiB | p50 ms | p99 ms | p50 / baseline | target |\n|---|---|---|---|---|---|\n")
	baseline := percentile(lat["/healthz"], 50)
	for _, e := range endpoints {
		p50 := percentile(lat[e], 50)
		target := ""
		if e != "/healthz" {
			target = "p50 < 100 ms: " + verdict(p50 < 100*time.Millisecond)
		}
		name := e
		if strings.HasPrefix(e, "/api/rules/") {
			name = "/api/rules/{most applied}"
		} else if strings.HasPrefix(e, "/api/sessions/") {
			name = "/api/sessions/{newest}"
		}
		b.printf("| %s | %.1f | %.2f | %.2f | %.0fx | %s |\n", name, float64(size[e])/1024, ms(p50), ms(percentile(lat[e], 99)), float64(p50)/float64(baseline), target)
	}
	b.printf("\n")
	return nil
}

// fillDashboard appends n events to the workspace's stream: sampleEvent's
// mix, with refs to the published rules and times spread over 90 days.
func fillDashboard(ctx context.Context, b *bench, ws *workspace.Workspace, ids []string, n int) error {
	s, err := newStoreOf(ctx, ws.StateDir(), ws.ID())
	if err != nil {
		return err
	}
	defer s.close()
	js, err := jetstream.New(s.nc, jetstream.WithPublishAsyncMaxPending(4096))
	if err != nil {
		return err
	}
	first := time.Now().Add(-90 * 24 * time.Hour)
	step := 90 * 24 * time.Hour / time.Duration(n)
	for i := 0; i < n; i++ {
		ev := sampleEvent(ws.ID(), i)
		ev.SessionID = fmt.Sprintf("session-%d", i/200)
		ev.Time = events.FormatTime(first.Add(time.Duration(i) * step))
		if ev.Type == events.TypeRefer {
			id := ids[(i*7919)%len(ids)]
			ev.Data, _ = json.Marshal(events.ReferData{Refs: []events.Ref{{
				RuleID: id, RuleHash: "sha256:" + strings.Repeat("0", 64), ConstraintID: fmt.Sprintf("Steps/%d", i%3+1),
				Name: "Steps", TextHash: "sha256:" + strings.Repeat("1", 64), Reason: "kept the change small",
			}}})
		}
		data, err := events.Encode(ev)
		if err != nil {
			return err
		}
		for {
			_, err := js.PublishAsync(ev.Subject(), data, jetstream.WithMsgID(ev.ID))
			if errors.Is(err, jetstream.ErrTooManyStalledMsgs) {
				// The server is behind (the machine is busy): let it
				// drain, then go on.
				<-js.PublishAsyncComplete()
				continue
			}
			if err != nil {
				return fmt.Errorf("publish %d: %w", i, err)
			}
			break
		}
	}
	select {
	case <-js.PublishAsyncComplete():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(5 * time.Minute):
		return fmt.Errorf("fill: publishes did not complete")
	}
}

// startUI starts `clumsies ui` and returns its base URL and a stop func.
func startUI(ctx context.Context, bin, dir string) (string, func(), error) {
	cmd := exec.Command(bin, "ui", "--workspace", dir, "--addr", "127.0.0.1:0", "--no-token") // loopback, measured, not guarded
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("clumsies ui printed no URL: %w", err)
	}
	return strings.TrimSuffix(strings.TrimSpace(line), "/"), stop, nil
}

func getBench(ctx context.Context, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %d %s", u, resp.StatusCode, body)
	}
	return body, err
}

func getJSONBench(ctx context.Context, u string, v any) error {
	body, err := getBench(ctx, u)
	if err != nil {
		return err
	}
	return json.Unmarshal(body, v)
}
