package dash

import (
	"context"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/dayrange"
	"github.com/clumsies/clumsies/projections"
)

// Rules is the API's list of rules: GET /api/rules. Context has no
// constraints and is never referenced.
type Rules struct {
	Range dayrange.Range `json:"range"`
	// Days are the days of the sparklines, oldest first: the range's
	// (an open start from the first day with events), at most
	// SparkDays, the last ones.
	Days  []string  `json:"days"`
	Items []RuleRow `json:"items"`
}

// SparkDays bounds the days of a rule's sparkline.
const SparkDays = 90

// RuleRow is a rule of the list with how well it does in the range: its
// Refs are those of the range.
type RuleRow struct {
	projections.RuleSummary
	// Source is set for a rule the repository's catalog does not publish
	// and whose refs the ledger counts: removed, team or unknown.
	Source string `json:"source,omitempty"`
	Effect
	// Spark is the rule's refs on each of Rules.Days.
	Spark []uint64 `json:"spark"`
}

// Effect is how a rule did in a range (its refs aside): the evidence of
// the sessions first seen in it (projections.RuleTotals: sessions with
// an edit in its scope and those of them that never loaded it, that
// loaded it, that claimed it; claims without evidence; what the gates
// recorded of it, RuleGate), refs per session that loaded it, and the
// last day it was applied (over all time).
type Effect struct {
	projections.RuleTotals
	RefsPerLoad float64 `json:"refsPerLoad"`
	LastApplied string  `json:"lastApplied,omitempty"` // YYYY-MM-DD
}

func effect(refs uint64, t projections.RuleTotals, days []projections.Day) Effect {
	e := Effect{RuleTotals: t}
	if t.Loaded > 0 {
		e.RefsPerLoad = float64(refs) / float64(t.Loaded)
	}
	for i := len(days) - 1; i >= 0; i-- {
		if days[i].Refs > 0 {
			e.LastApplied = days[i].Day
			break
		}
	}
	return e
}

// totalsIn sums the evidence of the sessions first seen in rg per rule.
func totalsIn(src Source, rg dayrange.Range) map[string]projections.RuleTotals {
	out := map[string]projections.RuleTotals{}
	for _, t := range projections.Totals(EvidenceOf(src.Evidence(), SessionsIn(src.Sessions(), rg))) {
		out[t.ID] = t
	}
	return out
}

func rules(ctx context.Context, src Source, rg dayrange.Range) (Rules, error) {
	window := fillDays(src.Days(), rg, time.Now())
	window = window[max(0, len(window)-SparkDays):]
	out := Rules{Range: rg, Days: make([]string, len(window)), Items: []RuleRow{}}
	at := make(map[string]int, len(window))
	for i, d := range window {
		out.Days[i], at[d.Day] = d.Day, i
	}
	totals := totalsIn(src, rg)
	row := func(r projections.RuleSummary) RuleRow {
		row := RuleRow{RuleSummary: r, Spark: make([]uint64, len(window))}
		if r.Kind == content.KindContext {
			return row
		}
		days := src.RuleDays(r.ID)
		for _, d := range days {
			if i, ok := at[d.Day]; ok {
				row.Spark[i] = d.Refs
			}
		}
		row.Refs = refsIn(src, r, rg)
		row.Effect = effect(row.Refs, totals[r.ID], days)
		return row
	}
	for _, r := range src.RuleSummaries() {
		out.Items = append(out.Items, row(r))
	}
	more, err := unlistedRules(ctx, src)
	if err != nil {
		return Rules{}, err
	}
	for _, u := range more {
		usage := src.UsageOf(u.ID)
		r := row(projections.RuleSummary{ID: u.ID, Kind: u.Kind, Path: u.Path, Name: content.NameOf(u.Path), Group: content.GroupOf(u.Path),
			Refs: usage.Refs, Constraints: len(usage.Constraints)})
		r.Source = u.Source
		out.Items = append(out.Items, r)
	}
	return out, nil
}
