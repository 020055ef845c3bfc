package main

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// Sizes of the hubstatschange section.
const (
	// changeNodes is how many nodes append the history.
	changeNodes = 50
	// changeDays is how many days back the history's sessions are
	// dated, within the stats' default window.
	changeDays = 30
)

// changeHistories are the history sizes (events) of the hubstatschange
// section: the same change read against each.
var changeHistories = []int{20_000, 100_000}

// benchHubStatsChange measures what a stats read costs right after a
// change against the history the read models hold: for each history size,
// a hub process whose changeNodes nodes appended that many events dated
// over the last changeDays days (a session's events on one day), then
// the summary read with the read models unchanged, and the same read
// right after one event of today was applied; with -vs, the same with
// that build's hub, alternating.
func benchHubStatsChange(ctx context.Context, b *bench) error {
	histories := changeHistories
	if b.quick {
		histories = []int{5_000, 25_000}
	}
	builds := []string{b.bin}
	if b.vs != "" {
		builds = append(builds, b.vs)
	}
	b.printf("## Hub stats: a read right after a change against the history (issue 36, part 3)\n\nOne `clumsies hub serve` process per history and build; %d light nodes append the history, dated over the last %d days (a session every 50 events, on one day), then all but one stop. `GET /api/stats` (the summary, the default 30 days) timed to its last byte, median of %d: unchanged (the answer kept), and right after one event of today was appended and applied. Load average at the start: %s.\n\n", changeNodes, changeDays, statsRepeat, loadAvg())
	b.printf("| build | history (events) | unchanged | right after a change | change / unchanged |\n|---|---|---|---|---|\n")
	after := map[string][]time.Duration{}
	for _, events := range histories {
		for _, bin := range builds {
			unchanged, changed, err := statsChangeRun(ctx, b, bin, events)
			if err != nil {
				return fmt.Errorf("%s, %d events: %w", bin, events, err)
			}
			after[bin] = append(after[bin], changed)
			b.printf("| %s | %d | %.1f ms | %.1f ms | %.1fx |\n", bin, events, ms(unchanged), ms(changed), ratio(changed, unchanged))
		}
	}
	b.printf("\n")
	for _, bin := range builds {
		a := after[bin]
		b.printf("%s: the read after a change at %d events against %d: %.2fx.\n", bin, histories[len(histories)-1], histories[0], ratio(a[len(a)-1], a[0]))
	}
	b.printf("\nLoad average at the end: %s.\n\n", loadAvg())
	return nil
}

// statsChangeRun fills one hub of build bin with a history of events and
// returns the summary's time unchanged and right after a change.
func statsChangeRun(ctx context.Context, b *bench, bin string, events int) (unchanged, changed time.Duration, err error) {
	own := b.bin
	b.bin = bin
	defer func() { b.bin = own }()
	hps, err := newHubProcs(b, 1)
	if err != nil {
		return 0, 0, err
	}
	r := &scaleRun{b: b, hubs: hps}
	defer r.close()
	if err := r.startHubs(); err != nil {
		return 0, 0, err
	}
	per := events / changeNodes
	if r.nodes, _, err = r.join(ctx, changeNodes, scaleJoinRequests, func(ln *leafNode) error {
		if err := ln.start(ctx); err != nil {
			return err
		}
		ln.spread = changeDays
		_, err := ln.appendN(ctx, per)
		ln.spread = 0
		return err
	}); err != nil {
		return 0, 0, fmt.Errorf("fill: %w", err)
	}
	r.events = uint64(changeNodes * per)
	hp := r.hubs[0]
	if _, err := hp.waitApplied(ctx, r.events, 15*time.Minute); err != nil {
		return 0, 0, err
	}
	for _, ln := range r.nodes[1:] {
		ln.close()
	}
	r.nodes = r.nodes[:1]
	var st hubwire.Stats
	if _, _, err := hp.getJSON(ctx, "/api/stats", nil, &st); err != nil {
		return 0, 0, err
	}
	if st.Totals.Events != r.events {
		return 0, 0, fmt.Errorf("the hub counts %d events in 30 days, want %d", st.Totals.Events, r.events)
	}
	summary := func() (time.Duration, error) {
		_, took, err := hp.getJSON(ctx, "/api/stats", url.Values{}, nil)
		return took, err
	}
	if unchanged, err = medianOf(summary); err != nil {
		return 0, 0, err
	}
	changed, err = medianOf(func() (time.Duration, error) {
		if _, err := r.nodes[0].appendN(ctx, 1); err != nil {
			return 0, err
		}
		r.events++
		if _, err := hp.waitApplied(ctx, r.events, time.Minute); err != nil {
			return 0, err
		}
		return summary()
	})
	return unchanged, changed, err
}
