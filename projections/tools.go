package projections

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/events"
)

// ToolMetrics sums up the calls of one tool.
type ToolMetrics struct {
	Tool    string `json:"tool"`
	Calls   uint64 `json:"calls"`
	Errors  uint64 `json:"errors"`  // calls with outcome error
	TotalUs uint64 `json:"totalUs"` // sum of the calls' durations, in µs
	MaxUs   uint64 `json:"maxUs"`   // the longest call, in µs
}

// AvgUs returns the mean duration of a call in µs, 0 when there was none.
func (m ToolMetrics) AvgUs() uint64 {
	if m.Calls == 0 {
		return 0
	}
	return m.TotalUs / m.Calls
}

// recordTool counts ev for its tool. Negative durations count as zero.
func (st *state) recordTool(ev *events.Event, ch *changes) {
	if ev.Tool == "" {
		return
	}
	m := st.tools[ev.Tool]
	if m == nil {
		m = &ToolMetrics{Tool: ev.Tool}
		st.tools[ev.Tool] = m
	}
	d := uint64(max(ev.DurationUs, 0))
	m.Calls++
	if ev.Outcome == events.OutcomeError {
		m.Errors++
	}
	m.TotalUs += d
	m.MaxUs = max(m.MaxUs, d)
	ch.tools[ev.Tool] = struct{}{}
}

// encode returns the row of m: calls, errors, total and max, 8 bytes each.
func (m *ToolMetrics) encode() []byte {
	b := make([]byte, 0, 32)
	for _, v := range [...]uint64{m.Calls, m.Errors, m.TotalUs, m.MaxUs} {
		b = binary.BigEndian.AppendUint64(b, v)
	}
	return b
}

func decodeToolMetrics(name string, b []byte) (*ToolMetrics, error) {
	if len(b) != 32 {
		return nil, fmt.Errorf("tool row %q: want 32 bytes, got %d", name, len(b))
	}
	u := func(i int) uint64 { return binary.BigEndian.Uint64(b[8*i:]) }
	return &ToolMetrics{Tool: name, Calls: u(0), Errors: u(1), TotalUs: u(2), MaxUs: u(3)}, nil
}

// Tools returns the metrics of every tool that was called, sorted by name.
func (s *Store) Tools() []ToolMetrics {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]ToolMetrics, 0, len(s.st.tools))
	for _, m := range s.st.tools {
		out = append(out, *m)
	}
	slices.SortFunc(out, func(a, b ToolMetrics) int { return strings.Compare(a.Tool, b.Tool) })
	return out
}
