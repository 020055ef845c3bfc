package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// BenchmarkTeamGates: what the hub's /metrics pays for the per-team gate
// sums (sumTeamGates) when the read models changed since the last
// scrape, against what the stats pay for the evidence of the same
// sessions (evidenceStats over their day, computed afresh), on rows of 5
// edits over 5 files with 2 rules in scope, a denial and a warning, in 3
// teams.
func BenchmarkTeamGates(b *testing.B) {
	for _, sessions := range []int{10000, 100000} {
		p, err := openProjector(b.TempDir(), func(string) (hubwire.Node, bool) { return hubwire.Node{}, false }, slog.New(slog.DiscardHandler))
		if err != nil {
			b.Fatal(err)
		}
		batch := p.db.NewBatch()
		for i := range sessions {
			r := evidenceRow{Member: "ann", Last: "2026-11-16"}
			for j := range 5 {
				r.Edit([]string{fmt.Sprintf("src/api/f%d.go", j)}, []string{"p-1", "p-2"})
			}
			r.Gate.Denials, r.Gate.Warnings = 1, 1
			v, err := json.Marshal(r)
			if err != nil {
				b.Fatal(err)
			}
			team := []string{"red", "blue", "green"}[i%3]
			id := fmt.Sprintf("s-%07d", i)
			if err := batch.Set(keyEvidence(team, "ws-"+team, "n-"+team, id), v, nil); err != nil {
				b.Fatal(err)
			}
			if err := batch.Set(keyLastSeen(r.Last, team, "ws-"+team, "n-"+team, id), nil, nil); err != nil {
				b.Fatal(err)
			}
		}
		if err := batch.Commit(nil); err != nil {
			b.Fatal(err)
		}
		snap := p.db.NewSnapshot()
		b.Run(fmt.Sprintf("metrics/sessions=%d", sessions), func(b *testing.B) {
			for b.Loop() {
				if _, err := sumTeamGates(context.Background(), snap); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("stats-evidence/sessions=%d", sessions), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := evidenceStats(snap, &statsCaches{}, Query{}, "2026-11-16", "2026-11-16"); err != nil {
					b.Fatal(err)
				}
			}
		})
		snap.Close()
		p.close()
	}
}
