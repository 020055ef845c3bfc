package main

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// sourceWrites is what each hub of a run says of its writes of the
// aggregate's sources: how many since it started, and their time.
type sourceWrites struct {
	count []uint64
	secs  []float64
}

// sourceWritesEach asks each hub of the run; a hub that does not answer
// counts 0.
func (r *scaleRun) sourceWritesEach(ctx context.Context) sourceWrites {
	out := sourceWrites{count: make([]uint64, len(r.hubs)), secs: make([]float64, len(r.hubs))}
	for i, hp := range r.hubs {
		hctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		h, err := hp.admin().Health(hctx)
		cancel()
		if err == nil {
			out.count[i], out.secs[i] = h.SourceWrites, h.SourceWriteSeconds
		}
	}
	return out
}

// since gives the writes each hub made after before, with their time.
func (s sourceWrites) since(before sourceWrites) string {
	var parts []string
	var n uint64
	for i := range s.count {
		c := s.count[i] - before.count[i]
		n += c
		parts = append(parts, fmt.Sprintf("%d (%.1f s)", c, s.secs[i]-before.secs[i]))
	}
	return fmt.Sprintf("%d: %s", n, strings.Join(parts, ", "))
}
