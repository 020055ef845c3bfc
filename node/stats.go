package node

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/projections"
)

// Stats is what `clumsies stats` shows of the read models.
type Stats struct {
	Summary  projections.Summary       `json:"summary"`
	Usage    []projections.RuleUsage   `json:"usage"`
	Tools    []projections.ToolMetrics `json:"tools"`
	Sessions []projections.Session     `json:"sessions"`
	// Compliance is per session, sorted by id.
	Compliance []projections.Compliance `json:"compliance"`
	// Evidence is per session, sorted by id.
	Evidence []projections.SessionEvidence `json:"evidence"`
	// Days count the events per day; RuleDays the refs per day of each
	// rule with refs. A range of days is read from them (dash.SumDays).
	Days     []projections.Day            `json:"days"`
	RuleDays map[string][]projections.Day `json:"ruleDays"`
}

// StatsOf reads the Stats of a store.
func StatsOf(s *projections.Store) Stats {
	st := Stats{Summary: s.Summary(), Usage: s.Usage(), Tools: s.Tools(), Sessions: s.Sessions(), Compliance: s.Compliance(), Evidence: s.Evidence(),
		Days: s.Days(), RuleDays: map[string][]projections.Day{}}
	for _, u := range st.Usage {
		if u.Refs > 0 {
			st.RuleDays[u.ID] = s.RuleDays(u.ID)
		}
	}
	return st
}

// teamUsage gives the usage of the rules the repository does not publish
// the path, kind and source of the team's catalog, when ov holds them.
func teamUsage(ctx context.Context, ov Overlay, s *projections.Store, usage []projections.RuleUsage) error {
	for i := range usage {
		u := &usage[i]
		if u.Path != "" {
			continue
		}
		it, ok, err := ov.View(ctx, u.ID, s)
		if err != nil {
			return fmt.Errorf("read team rule %s: %w", u.ID, err)
		}
		if ok && (it.Kind == content.KindRule || it.Kind == content.KindWorkflow) {
			u.Path, u.Kind, u.Source = it.Path, it.Kind, it.Source
		}
	}
	slices.SortStableFunc(usage, func(a, b projections.RuleUsage) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.ID, b.ID))
	})
	return nil
}

// Rebuilt is the outcome of a rebuild: the events replayed and the digest
// of the rebuilt read models.
type Rebuilt struct {
	Events uint64 `json:"events"`
	Digest string `json:"digest"`
}
