package projections_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/foldcase"
	"github.com/clumsies/clumsies/projections"
)

// workload returns n events shaped like a busy ledger: mostly memref calls
// (one to three refs each, over 50 rules and 200 sessions), with some
// setup, discover, load and agentreport calls. They went through the codec,
// as events read from a Log do, and have no sequence yet.
func workload(tb testing.TB, n int) []events.Event {
	tb.Helper()
	out := make([]events.Event, n)
	for i := range out {
		var t events.Type
		var payload any
		switch i % 20 {
		case 0:
			t, payload = events.TypeSetup, events.SetupData{KnownHash: content.Hash(nil), Hash: content.Hash(nil)}
		case 1:
			t, payload = events.TypeDiscover, events.DiscoverData{Query: "go style", Count: 12}
		case 2:
			t, payload = events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: fmt.Sprintf("p-%032x", i%50), Hash: content.Hash(nil), Changed: true}}}
		case 3:
			t, payload = events.TypeAgentReport, events.AgentReportData{Summary: "Implemented the change and ran the tests."}
		default:
			d := events.ReferData{}
			for r := range 1 + i%3 {
				d.Refs = append(d.Refs, events.Ref{
					RuleID: fmt.Sprintf("p-%032x", (i+r)%50), RuleHash: content.Hash([]byte{byte(i)}),
					ConstraintID: fmt.Sprintf("Steps/%d", 1+(i+r)%8), Name: "Steps",
					TextHash: content.Hash([]byte{byte(r)}), Reason: "applied while editing the handler",
				})
			}
			t, payload = events.TypeRefer, d
		}
		ev, err := events.New(workspace, t, payload)
		if err != nil {
			tb.Fatal(err)
		}
		ev.SessionID, ev.Tool, ev.DurationUs = fmt.Sprintf("session-%d", i%200), foldcase.Tool(t), int64(100+i%900)
		b, err := events.Encode(ev)
		if err != nil {
			tb.Fatal(err)
		}
		if out[i], err = events.Decode(b); err != nil {
			tb.Fatal(err)
		}
		out[i].Raw = b // as a log delivers it
	}
	return out
}

// BenchmarkApply applies decoded events in batches of 1000, as Run does
// while catching up; one op is one event.
func BenchmarkApply(b *testing.B) {
	tmpl := workload(b, 4000)
	s := openAt(b, vfs.Default, b.TempDir(), projections.Options{})
	batch := make([]events.Event, projections.DefaultBatchSize)
	var seq uint64
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; {
		n := min(len(batch), b.N-done)
		for i := range n {
			seq++
			batch[i] = tmpl[int(seq)%len(tmpl)]
			batch[i].Seq = seq
		}
		if err := s.Apply(batch[:n]...); err != nil {
			b.Fatal(err)
		}
		done += n
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkRebuild rebuilds a store on disk from a MemoryLog; the log
// decodes every event. One op is one whole rebuild.
func BenchmarkRebuild(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			log := events.NewMemoryLog()
			for _, ev := range workload(b, n) {
				ev.ID = events.NewID()
				if _, err := log.Append(context.Background(), ev); err != nil {
					b.Fatal(err)
				}
			}
			dir := b.TempDir()
			b.ResetTimer()
			for b.Loop() {
				s, err := projections.Rebuild(context.Background(), log, dir, projections.Options{}, nil)
				if err != nil {
					b.Fatal(err)
				}
				if got := s.Checkpoint(); got != uint64(n) {
					b.Fatalf("checkpoint: got %d, want %d", got, n)
				}
				s.Close()
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// catalog10k returns a store holding 10,000 published objects (rules,
// workflows and context, bodies of about 1 KiB) and a few drafts.
func catalog10k(b *testing.B) *projections.Store {
	b.Helper()
	l := newLedger(b)
	body := "## Steps\n" + fmt.Sprintf("%01000d", 0) + "\n- one\n- two\n"
	var evs []events.Event
	for i := range 10_000 {
		switch i % 10 {
		case 0:
			evs = append(evs, l.publish(fmt.Sprintf("c-%032x", i), content.KindContext, fmt.Sprintf("area%d/DOC%d.md", i%40, i), body))
		case 1:
			evs = append(evs, l.publish(fmt.Sprintf("p-%032x", i), content.KindWorkflow, fmt.Sprintf("workflow/FLOW%d.md", i), body))
		default:
			evs = append(evs, l.publish(fmt.Sprintf("p-%032x", i), content.KindRule, fmt.Sprintf("lang%d/RULE%d.md", i%40, i), body))
		}
	}
	for i := range 20 {
		evs = append(evs, l.add(events.TypeDraftUpdate, events.DraftData{Resource: "rule", ID: fmt.Sprintf("p-%032x", i*7+2), Body: "draft"}))
		evs = append(evs, l.add(events.TypeDraftCreate, events.DraftData{Resource: "rule", ID: fmt.Sprintf("tmp-rule-%012x", i), Path: fmt.Sprintf("new/N%d.md", i), Body: "new"}))
	}
	s := openAt(b, vfs.Default, b.TempDir(), projections.Options{})
	apply(b, s, evs...)
	return s
}

// BenchmarkList10k lists a 10,000-object catalog, as memdisc does.
func BenchmarkList10k(b *testing.B) {
	s := catalog10k(b)
	for _, tc := range []struct {
		name   string
		filter projections.Filter
		want   int
	}{
		{"All", projections.Filter{}, 10_000 + 20},
		{"Query", projections.Filter{Query: "LANG7/ rule1"}, 0},
		{"KindGroup", projections.Filter{Kind: "rule", Group: "lang3"}, 250},
	} {
		b.Run(tc.name, func(b *testing.B) {
			n := len(mustList(b, s, tc.filter))
			if tc.want > 0 && n != tc.want {
				b.Fatalf("got %d items, want %d", n, tc.want)
			}
			b.ReportAllocs()
			for b.Loop() {
				mustList(b, s, tc.filter)
			}
		})
	}
}

// BenchmarkView loads one id from a 10,000-object catalog, as memload
// does for each id.
func BenchmarkView(b *testing.B) {
	s := catalog10k(b)
	for _, tc := range []struct{ name, id string }{
		{"Published", fmt.Sprintf("p-%032x", 5003)},
		{"UpdateDraft", fmt.Sprintf("p-%032x", 2)},
		{"CreateDraft", fmt.Sprintf("tmp-rule-%012x", 3)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.View(context.Background(), tc.id); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("Object", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Object(fmt.Sprintf("p-%032x", 5003)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
