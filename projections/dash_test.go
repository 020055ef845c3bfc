package projections_test

import (
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

func TestLatencyBuckets(t *testing.T) {
	for i := 0; i < projections.LatencyBuckets; i++ {
		if lo, hi := projections.LatencyBound(i), projections.LatencyBound(i+1); lo >= hi {
			t.Fatalf("bucket %d: [%d, %d) is empty", i, lo, hi)
		}
	}
	// Quantiles come from the buckets: upper bounds within a factor 1.5.
	l := projections.Latency{Buckets: make([]uint64, projections.LatencyBuckets)}
	s := openMem(t)
	lg := newLedger(t)
	var evs []events.Event
	for _, us := range []int64{0, 1, 2, 3, 100, 100, 100, 1000, 5000, 1 << 40} {
		evs = append(evs, lg.refer(ruleA, []string{"Style"}, took(us)))
	}
	apply(t, s, evs...)
	got := s.Latencies()
	if len(got) != 1 || got[0].Tool != "memref" || got[0].Count() != 10 {
		t.Fatalf("got %s, want one histogram of memref with 10 calls", jsonOf(got))
	}
	if p50 := got[0].Quantile(0.5); p50 <= 100 || p50 > 150 {
		t.Errorf("p50 %d µs, want in (100, 150]", p50)
	}
	if p90 := got[0].Quantile(0.9); p90 <= 5000 || p90 > 7500 {
		t.Errorf("p90 %d µs, want in (5000, 7500]", p90)
	}
	if p100 := got[0].Quantile(1); p100 <= 1<<40 {
		t.Errorf("p100 %d µs, want above %d", p100, int64(1<<40))
	}
	if q := l.Quantile(0.5); q != 0 {
		t.Errorf("quantile of no calls: %d, want 0", q)
	}
}

// TestStore_Dashboard checks the dashboard's model: counts per day, refs
// per rule and day, a session's timeline, the sessions that applied a rule
// and its publishes, and that all of it is read back after a reopen.
func TestStore_Dashboard(t *testing.T) {
	fs := vfs.NewMem()
	s := openAt(t, fs, "/db", projections.Options{})
	l := newLedger(t)
	apply(t, s,
		l.publish(ruleA, "rule", "go/A.md", bodyA, at("2026-01-01T10:00:00.000Z")),
		l.add(events.TypeSetup, events.SetupData{}, inSession("s1"), at("2026-01-01T10:00:01.000Z")),
		l.refer(ruleA, []string{"Style", "Steps/1"}, inSession("s1"), at("2026-01-01T10:00:02.000Z")),
		l.refer(ruleA, []string{"Style"}, inSession("s1"), failed("unknown_constraint"), at("2026-01-01T10:00:03.000Z")),
		l.refer(ruleA, []string{"Steps/2"}, inSession("s2"), at("2026-01-03T09:00:00.000Z")),
		l.publish(ruleA, "rule", "go/A.md", bodyA+"\nmore\n", at("2026-01-03T09:30:00.000Z")),
	)
	check := func(s *projections.Store) {
		t.Helper()
		days := s.Days()
		want := []projections.Day{
			{Day: "2026-01-01", Events: 4, Calls: 3, Errors: 1, Refs: 2, Setups: 1},
			{Day: "2026-01-03", Events: 2, Calls: 1, Refs: 1},
		}
		if jsonOf(days) != jsonOf(want) {
			t.Errorf("days: got %s\nwant %s", jsonOf(days), jsonOf(want))
		}
		if got, want := jsonOf(s.RuleDays(ruleA)), jsonOf([]projections.Day{{Day: "2026-01-01", Refs: 2}, {Day: "2026-01-03", Refs: 1}}); got != want {
			t.Errorf("rule days: got %s, want %s", got, want)
		}
		ctx := testCtx(t)
		tl, older, err := s.Timeline(ctx, "s1", 0)
		if err != nil || older || jsonOf(tl) != jsonOf([]uint64{2, 3, 4}) {
			t.Errorf("timeline of s1: %v older %v err %v; want the sequences of its setup and two memrefs, 2, 3, 4", tl, older, err)
		}
		if tl, older, _ := s.Timeline(ctx, "s1", 2); jsonOf(tl) != jsonOf([]uint64{3, 4}) || !older {
			t.Errorf("the last 2 of s1: %v older %v; want 3, 4 and older set", tl, older)
		}
		apps, more, err := s.RuleApplications(ctx, ruleA, 0)
		if err != nil || more || jsonOf(apps) != jsonOf([]uint64{5, 3}) {
			t.Errorf("applications of A: %v (err %v); want 5 then 3 (the failed call is none)", apps, err)
		}
		if apps, more, _ := s.RuleApplications(ctx, ruleA, 1); jsonOf(apps) != jsonOf([]uint64{5}) || !more {
			t.Errorf("the newest application of A: %v more %v; want 5 and more", apps, more)
		}
		pubs, err := s.Publishes(ctx, ruleA)
		if err != nil || len(pubs) != 2 || pubs[0].Seq >= pubs[1].Seq || pubs[0].Hash == pubs[1].Hash {
			t.Errorf("publishes of A: %s %v; want two, oldest first", jsonOf(pubs), err)
		}
		sums := s.RuleSummaries()
		if len(sums) != 1 || sums[0].ID != ruleA || sums[0].Refs != 3 || sums[0].Constraints != 3 || sums[0].Unused != 0 {
			t.Errorf("rule summaries: %s; want A with 3 refs over its 3 constraints, none unused", jsonOf(sums))
		}
		if u := s.UsageOf(ruleA); u.Refs != 3 || len(u.Constraints) != 3 || u.Path != "go/A.md" {
			t.Errorf("usage of A: %s", jsonOf(u))
		}
		if _, err := s.Session("nope"); err == nil {
			t.Errorf("session nope: found")
		}
	}
	check(s)
	before := digest(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	again := openAt(t, fs, "/db", projections.Options{})
	check(again)
	if d := digest(t, again); d != before {
		t.Errorf("digest after reopen %s, want %s", d, before)
	}
}

// A catalog.reid moves a rule's refs per day, and the usage, to its new
// id, in memory and in the rows a reopened store loads.
func TestStore_ReidMovesRuleDays(t *testing.T) {
	fs := vfs.NewMem()
	s := openAt(t, fs, "/db", projections.Options{})
	l := newLedger(t)
	apply(t, s,
		l.publish(ruleA, "rule", "go/A.md", bodyA, at("2026-01-01T10:00:00.000Z")),
		l.refer(ruleA, []string{"Style"}, inSession("s1"), at("2026-01-01T10:00:02.000Z")),
		l.publish(ruleB, "rule", "go/A.md", bodyA, at("2026-01-02T10:00:00.000Z")),
		l.add(events.TypeCatalogReid, events.ReidData{From: ruleA, To: ruleB, Kind: "rule", Path: "go/A.md"}, at("2026-01-02T10:00:00.000Z")),
		l.refer(ruleB, []string{"Style"}, inSession("s1"), at("2026-01-02T10:00:02.000Z")),
	)
	check := func(s *projections.Store) {
		t.Helper()
		want := jsonOf([]projections.Day{{Day: "2026-01-01", Refs: 1}, {Day: "2026-01-02", Refs: 1}})
		if got := jsonOf(s.RuleDays(ruleB)); got != want {
			t.Errorf("rule days of the new id: got %s, want %s", got, want)
		}
		if got := s.RuleDays(ruleA); len(got) != 0 {
			t.Errorf("rule days of the old id: got %s, want none", jsonOf(got))
		}
		if u := s.UsageOf(ruleB); u.Refs != 2 {
			t.Errorf("usage of the new id: %+v, want 2 refs", u)
		}
	}
	check(s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	check(openAt(t, fs, "/db", projections.Options{}))
}
