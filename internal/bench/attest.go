package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/proof/attest"
)

// benchAttest measures what `clumsies attest` costs on a ledger of the
// mixed events with an agent's file edits among them: folding the whole
// ledger into the evidence (the hash chain recomputed),
// attributing a commit of 20 files and signing it, against a plain
// replay of the same ledger (envelopes decoded, nothing else), in
// alternating rounds of the same run.
func benchAttest(ctx context.Context, b *bench) error {
	n := 200_000
	if b.quick {
		n = 20_000
	}
	const edits = 400 // one file edit every n/edits events
	b.printf("## Attesting a commit (issue: attested commits)\n\n")
	b.printf("A ledger of %d events (the mixed events, with %d `attest.file_edit` among them); the commit changes 20 files, 10 of them written by those edits. Replay: `natsjs.Log.Replay` of the whole ledger doing nothing with the events. Attest: the same replay into `attest.Evidence` (the payloads it reads decoded, loads and refs only for the sessions cited; the hash chain recomputed), then `attest.Attribute` and `attest.Sign`: what `clumsies attest` does for one commit, less the git calls. Median of %d alternating rounds.\n\n", n, edits, 2*rounds(b)-1)
	s, err := newStore(ctx, b.tempDir("attest"), embeddednats.SyncInterval)
	if err != nil {
		return err
	}
	defer s.close()
	var changes []attest.Change
	for k := 0; k < edits; k++ {
		if err := fill(ctx, s.nc, s.ws, k*(n/edits), (k+1)*(n/edits)-1); err != nil {
			return err
		}
		path, blob := fmt.Sprintf("src/f%03d.go", k%20), fmt.Sprintf("%040x", k+1)
		ev, err := events.New(s.ws, events.TypeFileEdit, events.FileEditData{Host: "claude-code", Tool: "Write",
			Paths: []string{path}, Rules: []string{fmt.Sprintf("p-%032x", k%200)},
			Hashes: map[string]string{path: blob}, Before: map[string]string{path: fmt.Sprintf("%040x", k-19)}})
		if err != nil {
			return err
		}
		ev.SessionID = fmt.Sprintf("session-%d", k*(n/edits)/50)
		if _, err := s.log.Append(ctx, ev); err != nil {
			return err
		}
		if k >= edits-10 {
			changes = append(changes, attest.Change{Path: path, Blob: blob})
		}
	}
	for k := 0; k < 10; k++ {
		changes = append(changes, attest.Change{Path: fmt.Sprintf("docs/h%d.md", k), Blob: fmt.Sprintf("%040x", 1<<20+k)})
	}
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	tg := attest.Target{Commit: fmt.Sprintf("%040x", 7), Changes: changes}
	var replay, att []float64
	agents := 0
	for r := 0; r < 2*rounds(b)-1; r++ {
		for _, full := range []bool{r%2 == 0, r%2 == 1} {
			start := time.Now()
			if !full {
				if err := s.log.Replay(ctx, 1, func(events.Event) error { return nil }); err != nil {
					return err
				}
				replay = append(replay, time.Since(start).Seconds()*1000)
				continue
			}
			e := attest.NewEvidence(s.ws, "")
			if err := s.log.Replay(ctx, 1, e.Add); err != nil {
				return err
			}
			p := attest.Attribute(e, tg)
			if _, err := attest.Sign(ctx, p, key); err != nil {
				return err
			}
			att = append(att, time.Since(start).Seconds()*1000)
			agents = 0
			for _, f := range p.Files {
				if f.By == attest.ByAgent {
					agents++
				}
			}
		}
	}
	ratio := median(att) / median(replay)
	b.printf("| ledger events | replay (ms) | attest one commit (ms) | attest / replay | agent files found | target ≤ 3x |\n|---|---|---|---|---|---|\n")
	b.printf("| %d | %.0f | %.0f | %.2fx | %d of 10 | %s |\n\n", n, median(replay), median(att), ratio, agents, verdict(ratio <= 3 && agents == 10))
	return nil
}
