package projections

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
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

// prefixTool is the tools' key prefix: t/<tool> holds a toolRow.
const prefixTool = "t/"

func toolKey(name string) []byte { return []byte(prefixTool + name) }

// toolsModel is the read model of tool metrics: what the calls of each
// tool add up to.
type toolsModel struct {
	byName  map[string]*toolRow
	touched map[string]struct{} // tool names, since the last write
}

func newToolsModel() *toolsModel {
	return &toolsModel{byName: make(map[string]*toolRow), touched: make(map[string]struct{})}
}

func (m *toolsModel) Prefixes() []string { return []string{prefixTool} }

// apply counts an event for its tool, whatever its outcome. Negative
// durations count as zero.
func (m *toolsModel) Apply(d decoded) {
	ev := d.ev
	if ev.Tool == "" {
		return
	}
	r := m.byName[ev.Tool]
	if r == nil {
		r = new(toolRow)
		m.byName[ev.Tool] = r
	}
	us := uint64(max(ev.DurationUs, 0))
	r.calls++
	if ev.Outcome == events.OutcomeError {
		r.errors++
	}
	r.totalUs += us
	r.maxUs = max(r.maxUs, us)
	m.touched[ev.Tool] = struct{}{}
}

func (m *toolsModel) Write(w *engine.RowWriter) {
	for name := range m.touched {
		w.Set(toolKey(name), m.byName[name].encode())
	}
	clear(m.touched)
}

func (m *toolsModel) Load(k string, v []byte) error {
	name := k[len(prefixTool):]
	r, err := decodeToolRow(v)
	if err != nil {
		return fmt.Errorf("tool row %q: %w", name, err)
	}
	m.byName[name] = r
	return nil
}

// toolRow is the metrics of a tool as the model keeps them, in memory and
// on disk (calls, errors, total and max, 8 bytes each); the name is the
// key's.
type toolRow struct{ calls, errors, totalUs, maxUs uint64 }

func (r *toolRow) metrics(name string) ToolMetrics {
	return ToolMetrics{Tool: name, Calls: r.calls, Errors: r.errors, TotalUs: r.totalUs, MaxUs: r.maxUs}
}

func (r *toolRow) encode() []byte {
	b := make([]byte, 0, 32)
	for _, v := range [...]uint64{r.calls, r.errors, r.totalUs, r.maxUs} {
		b = binary.BigEndian.AppendUint64(b, v)
	}
	return b
}

func decodeToolRow(b []byte) (*toolRow, error) {
	if len(b) != 32 {
		return nil, fmt.Errorf("want 32 bytes, got %d", len(b))
	}
	u := func(i int) uint64 { return binary.BigEndian.Uint64(b[8*i:]) }
	return &toolRow{calls: u(0), errors: u(1), totalUs: u(2), maxUs: u(3)}, nil
}

// Tools returns the metrics of every tool that was called, sorted by name.
func (s *Store) Tools() []ToolMetrics {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]ToolMetrics, 0, len(s.st.tools.byName))
	for name, r := range s.st.tools.byName {
		out = append(out, r.metrics(name))
	}
	slices.SortFunc(out, func(a, b ToolMetrics) int { return strings.Compare(a.Tool, b.Tool) })
	return out
}
