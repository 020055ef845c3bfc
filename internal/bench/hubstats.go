package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"time"
)

// Sizes of the hubstats section.
const (
	// statsPer is what each node appends (sampleEvent: a session every
	// 50 events, most of them refs and loads of 200 rules).
	statsPer = 1_000
	// statsRepeat is how many times each read is timed; the median is
	// reported.
	statsRepeat = 9
	// statsListPage is the rows the hub dashboard reads of a list at
	// first (LIST_PAGE in hubpages.js).
	statsListPage = 50
)

// statsLists are the stats' paged lists, as the hub dashboard reads them
// at a redraw after the summary.
var statsLists = []string{"/api/stats/rules", "/api/stats/members", "/api/stats/evidence/rules", "/api/stats/sessions", "/api/stats/checks"}

// benchHubStats measures what the hub's stats answers cost against their
// size: a hub process with b.hubNodes nodes that appended statsPer events
// each; the summary, the first page of the sessions, a walk of every
// session's page, and a dashboard's redraw (the summary and the first page
// of each list) while the read models stay and right after they moved,
// against a page of /api/nodes in the same run.
func benchHubStats(ctx context.Context, b *bench) error {
	n, per := b.hubNodes, statsPer
	if b.quick {
		per = 250
	}
	hps, err := newHubProcs(b, 1)
	if err != nil {
		return err
	}
	r := &scaleRun{b: b, hubs: hps}
	defer r.close()
	b.printf("## Hub stats: what an answer costs (issue 36)\n\nOne `clumsies hub serve` process; %d light nodes (as in hubscale) each append %d events (a session every 50: %d sessions, refs and loads of 200 rules), then all but one stop. Each read is an HTTP GET with the admin token, timed to its last byte, median of %d. Load average at the start: %s.\n\n", n, per, n*per/50, statsRepeat, loadAvg())
	if err := r.startHubs(); err != nil {
		return err
	}
	fillStart := time.Now()
	// Each node starts and appends as soon as it joined.
	if r.nodes, _, err = r.join(ctx, n, scaleJoinRequests, func(ln *leafNode) error {
		if err := ln.start(ctx); err != nil {
			return err
		}
		_, err := ln.appendN(ctx, per)
		return err
	}); err != nil {
		return fmt.Errorf("fill: %w", err)
	}
	r.events = uint64(n * per)
	if err := r.waitAll(ctx, 15*time.Minute); err != nil {
		return fmt.Errorf("fill: %w", err)
	}
	filled, events := time.Since(fillStart), r.events
	for _, ln := range r.nodes[1:] {
		ln.close()
	}
	r.nodes = r.nodes[:1]
	hp := r.hubs[0]
	rssBefore := hp.rss()
	get := func(path string, v url.Values) (time.Duration, error) {
		_, took, err := hp.getJSON(ctx, path, v, nil)
		return took, err
	}
	limit := url.Values{"limit": {fmt.Sprint(statsListPage)}}
	base, err := medianOf(func() (time.Duration, error) { return get("/api/nodes", limit) })
	if err != nil {
		return err
	}
	summary, err := medianOf(func() (time.Duration, error) { return get("/api/stats", nil) })
	if err != nil {
		return err
	}
	first, err := medianOf(func() (time.Duration, error) { return get("/api/stats/sessions", limit) })
	if err != nil {
		return err
	}
	walk, pages, sessions, size, err := hp.walkSessions(ctx)
	if err != nil {
		return err
	}
	idle, err := medianOf(func() (time.Duration, error) { return hp.redraw(ctx) })
	if err != nil {
		return err
	}
	moved, err := medianOf(func() (time.Duration, error) { return r.redrawMoved(ctx) })
	if err != nil {
		return err
	}
	rssAfter := hp.rss()
	x := func(d time.Duration) string { return fmt.Sprintf("%.1f ms (%.1fx)", ms(d), ratio(d, base)) }
	b.printf("| read | time (x a page of /api/nodes) |\n|---|---|\n")
	b.printf("| baseline: `GET /api/nodes?limit=%d` (%d nodes) | %.1f ms (1x) |\n", statsListPage, n, ms(base))
	b.printf("| `GET /api/stats` (the summary) | %s |\n", x(summary))
	b.printf("| `GET /api/stats/sessions?limit=%d` (the first page) | %s |\n", statsListPage, x(first))
	b.printf("| every session's page, limit 1000: %d pages, %d sessions, %.1f MiB of JSON, in all | %s |\n", pages, sessions, float64(size)/(1<<20), x(walk))
	b.printf("| a dashboard redraw: the summary and the first %d of each of the %d lists, the read models unchanged | %s |\n", statsListPage, len(statsLists), x(idle))
	b.printf("| the same redraw right after one event was applied (the read models moved) | %s |\n", x(moved))
	if b.profile != "" {
		if err := r.profileRedraws(ctx); err != nil {
			return fmt.Errorf("profile: %w", err)
		}
	}
	b.printf("\nHub RSS before the reads %.0f MiB, after them %.0f MiB. %d events filled and applied in %.1f s. Load average at the end: %s.\n\n", mib(rssBefore), mib(rssAfter), events, filled.Seconds(), loadAvg())
	return nil
}

// medianOf runs read statsRepeat times and returns the median time.
func medianOf(read func() (time.Duration, error)) (time.Duration, error) {
	var ds []time.Duration
	for range statsRepeat {
		d, err := read()
		if err != nil {
			return 0, err
		}
		ds = append(ds, d)
	}
	return medianDuration(ds), nil
}

// getJSON reads path with the query v from the hub's API with the admin
// token, decodes it into out when not nil, and returns the body and the
// time to its last byte.
func (hp *hubProc) getJSON(ctx context.Context, path string, v url.Values, out any) ([]byte, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, hp.cfg.APIURL()+path+"?"+v.Encode(), nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+hp.token)
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	took := time.Since(start)
	if err != nil {
		return nil, 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, 0, fmt.Errorf("GET %s: %s: %s", path, resp.Status, body)
	}
	if out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			return nil, 0, fmt.Errorf("GET %s: %w", path, err)
		}
	}
	return body, took, nil
}

// walkSessions reads every page of the sessions, 1,000 at a time, and
// returns the time of them all, the pages, the sessions and their bytes.
func (hp *hubProc) walkSessions(ctx context.Context) (took time.Duration, pages, sessions, size int, err error) {
	cursor := ""
	for {
		var p struct {
			Items []json.RawMessage `json:"items"`
			Next  string            `json:"next"`
		}
		v := url.Values{"limit": {"1000"}}
		if cursor != "" {
			v.Set("cursor", cursor)
		}
		body, d, err := hp.getJSON(ctx, "/api/stats/sessions", v, &p)
		if err != nil {
			return 0, 0, 0, 0, err
		}
		took += d
		pages++
		sessions += len(p.Items)
		size += len(body)
		if p.Next == "" {
			return took, pages, sessions, size, nil
		}
		cursor = p.Next
	}
}

// redraw reads what the hub dashboard reads at a redraw: the summary, then
// the first statsListPage rows of each list, and returns the time of them
// all.
func (hp *hubProc) redraw(ctx context.Context) (time.Duration, error) {
	_, took, err := hp.getJSON(ctx, "/api/stats", nil, nil)
	if err != nil {
		return 0, err
	}
	for _, path := range statsLists {
		_, d, err := hp.getJSON(ctx, path, url.Values{"limit": {fmt.Sprint(statsListPage)}}, nil)
		if err != nil {
			return 0, err
		}
		took += d
	}
	return took, nil
}

// redrawMoved appends one event at the run's first node, waits until the
// hub applied it, and returns the time of the redraw the dashboard then
// makes.
func (r *scaleRun) redrawMoved(ctx context.Context) (time.Duration, error) {
	if _, err := r.nodes[0].appendN(ctx, 1); err != nil {
		return 0, err
	}
	r.events++
	hp := r.hubs[0]
	if _, err := hp.waitApplied(ctx, r.events, time.Minute); err != nil {
		return 0, err
	}
	return hp.redraw(ctx)
}

// statsProfile is how long the hub's CPU profile of redraws after a
// change runs.
const statsProfile = 15 * time.Second

// profileRedraws writes to b.profile the hub process's CPU profile while
// redraws after a change follow each other.
func (r *scaleRun) profileRedraws(ctx context.Context) error {
	got := make(chan error, 1)
	go func() {
		body, err := getBench(ctx, fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", r.hubs[0].pprof, int(statsProfile.Seconds())))
		if err == nil {
			err = os.WriteFile(r.b.profile, body, 0o600)
		}
		got <- err
	}()
	for end := time.Now().Add(statsProfile); time.Now().Before(end); {
		if _, err := r.redrawMoved(ctx); err != nil {
			return err
		}
	}
	return <-got
}
