package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/proof/ledger"
)

// ExportCommand writes the ledger as compressed JSON lines.
type ExportCommand struct {
	m     *Main
	ws    wsFlags
	json  bool
	since uint64
}

// Run implements command. The export goes to stdout; progress and the
// summary go to stderr. It exits with status 1, after writing the whole
// export, if the ledger's chain is broken.
func (c *ExportCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("export", "export [--workspace DIR] [--since SEQ] [--json] > FILE")
	fs.Uint64Var(&c.since, "since", 1, "export the events from sequence `SEQ` on (an incremental backup: import it on top of a copy that ends at SEQ-1)")
	c.ws.register(fs)
	fs.BoolVar(&c.json, "json", false, "print the summary on stderr as JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if isTerminal(c.m.Stdout) {
		return fmt.Errorf("%w: export writes compressed data; redirect it to a file: clumsies export > ledger.jsonl.gz", errUsage)
	}
	h, err := c.ws.attach(ctx, c.m, node.Options{LinkQuiet: true})
	if err != nil {
		return err
	}
	defer h.Close()
	total, err := h.LastSeq(ctx)
	if err != nil {
		return err
	}
	start := time.Now()
	progress := progressLine(c.m.Stderr, "exporting")
	s, err := ledger.Export(ctx, h, h.Workspace().ID(), c.since, total, c.m.Stdout, progress)
	endProgress(c.m.Stderr, progress)
	if err != nil {
		return err
	}
	if err := printSummary(c.m.Stderr, c.json, "exported", s, time.Since(start)); err != nil {
		return err
	}
	if s.Problem != nil {
		fmt.Fprintf(c.m.Stderr, "clumsies: the ledger's chain is broken at seq %d: %s; `clumsies import` will refuse this export (run `clumsies verify`)\n", s.Problem.Seq, s.Problem.Reason)
		return errSilent{1}
	}
	return nil
}

// printSummary prints what an export or an import did.
func printSummary(w io.Writer, asJSON bool, verb string, s ledger.Summary, took time.Duration) error {
	if asJSON {
		return json.NewEncoder(w).Encode(struct {
			ledger.Summary
			Seconds float64 `json:"seconds"`
		}{s, took.Seconds()})
	}
	rate := float64(s.Events) / max(took.Seconds(), 1e-9)
	_, err := fmt.Fprintf(w, "%s %s (seq %d..%d, %s) of %s in %s (%.0f events/s)\nchain %s\n",
		verb, count(int(s.Events), "event"), s.From, s.Through, count(s.Checkpoints, "checkpoint"), s.WorkspaceID, took.Round(time.Millisecond), rate, s.Digest)
	return err
}

// progressLine returns a progress reporter that rewrites one line of w
// (a terminal) at most ten times a second, nil when w is no terminal.
func progressLine(w io.Writer, verb string) func(done, total uint64) {
	if !isTerminal(w) {
		return nil
	}
	var last time.Time
	return func(done, total uint64) {
		if now := time.Now(); now.Sub(last) > 100*time.Millisecond || done == total {
			last = now
			pct := 100.0
			if total > 0 {
				pct = float64(done) * 100 / float64(total)
			}
			fmt.Fprintf(w, "\r%s %d/%d events (%.0f%%)", verb, done, total, pct)
		}
	}
}

// endProgress ends the line of a progress reporter.
func endProgress(w io.Writer, progress func(done, total uint64)) {
	if progress != nil {
		fmt.Fprintln(w)
	}
}
