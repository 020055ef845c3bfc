package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/clumsies/clumsies/events"
)

// tally is what the consumer has counted so far. It is also the state it
// saves: LastSeq is the stream sequence of the newest applied event, so an
// event delivered again (after a crash between saving and acking) is not
// counted twice.
type tally struct {
	LastSeq     uint64                `json:"lastSeq"`
	Events      int                   `json:"events"`
	Refs        map[string]int        `json:"refs"`        // refs per rule id
	Constraints map[string]int        `json:"constraints"` // refs per constraintKey
	Tools       map[string]*toolCount `json:"tools"`       // per tool name
	Sessions    map[string]int        `json:"sessions"`    // tool calls per session id
}

// toolCount counts the calls of one tool.
type toolCount struct {
	Calls  int `json:"calls"`
	Errors int `json:"errors"`
}

func newTally() *tally {
	return &tally{
		Refs:        map[string]int{},
		Constraints: map[string]int{},
		Tools:       map[string]*toolCount{},
		Sessions:    map[string]int{},
	}
}

// constraintKey names a constraint across rules: constraint ids such as
// Steps/2 are unique within one rule only. Rule ids hold no '#'.
func constraintKey(ruleID, constraintID string) string { return ruleID + "#" + constraintID }

// apply counts ev and reports whether it was new. An event at or below
// LastSeq was counted before and is skipped.
func (t *tally) apply(ev events.Event) (bool, error) {
	if ev.Seq <= t.LastSeq {
		return false, nil
	}
	if ev.Type.IsTool() {
		tool := cmp.Or(ev.Tool, string(ev.Type))
		c := t.Tools[tool]
		if c == nil {
			c = &toolCount{}
			t.Tools[tool] = c
		}
		c.Calls++
		if ev.Outcome == events.OutcomeError {
			c.Errors++
		}
		if ev.SessionID != "" {
			t.Sessions[ev.SessionID]++
		}
	}
	if ev.Type == events.TypeRefer && ev.Outcome == events.OutcomeOK {
		p, err := ev.Payload()
		if err != nil {
			return false, fmt.Errorf("apply event %d: %w", ev.Seq, err)
		}
		for _, r := range p.(*events.ReferData).Refs {
			t.Refs[r.RuleID]++
			t.Constraints[constraintKey(r.RuleID, r.ConstraintID)]++
		}
	}
	t.LastSeq = ev.Seq
	t.Events++
	return true, nil
}

// print writes the counts as tables, biggest first.
func (t *tally) print(w io.Writer) error {
	fmt.Fprintf(w, "%d events (last seq %d), %d sessions\n\n", t.Events, t.LastSeq, len(t.Sessions))
	// Blank lines end a tabwriter block: each table aligns on its own.
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tCALLS\tERRORS")
	for _, name := range byCount(t.Tools, func(c *toolCount) int { return c.Calls }) {
		fmt.Fprintf(tw, "%s\t%d\t%d\n", name, t.Tools[name].Calls, t.Tools[name].Errors)
	}
	fmt.Fprintln(tw, "\nRULE\tREFS")
	for _, id := range byCount(t.Refs, identity) {
		fmt.Fprintf(tw, "%s\t%d\n", id, t.Refs[id])
	}
	fmt.Fprintln(tw, "\nRULE\tCONSTRAINT\tREFS")
	for _, key := range byCount(t.Constraints, identity) {
		rule, constraint, _ := strings.Cut(key, "#")
		fmt.Fprintf(tw, "%s\t%s\t%d\n", rule, constraint, t.Constraints[key])
	}
	fmt.Fprintln(tw)
	return tw.Flush()
}

func identity(n int) int { return n }

// byCount returns the keys of m, biggest count first, then by name.
func byCount[V any](m map[string]V, count func(V) int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(count(m[b]), count(m[a])), strings.Compare(a, b))
	})
	return keys
}
