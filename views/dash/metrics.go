package dash

import (
	"cmp"
	"slices"

	"github.com/clumsies/clumsies/projections"
)

// MetricsTopRules bounds the rules /metrics names one by one: the most
// referenced; the refs of the others are summed (RestRefs), so that a
// catalog of thousands of rules keeps the scrape small.
const MetricsTopRules = 20

// Metrics is what /metrics reads of the read models: GET /api/metrics is
// not routed; the metrics collector asks for PageMetrics.
type Metrics struct {
	Ledger
	Events    uint64                    `json:"events"`
	Tools     []projections.ToolMetrics `json:"tools"`
	Latencies []projections.Latency     `json:"latencies"`
	// Sessions set up (a memsetup bound them) and seen by hooks only.
	Sessions          int `json:"sessions"`
	SessionsHooksOnly int `json:"sessionsHooksOnly"`
	// OpenDrafts counts the drafts waiting for review.
	OpenDrafts int `json:"openDrafts"`
	// Rules are the MetricsTopRules published rules, workflows and
	// context items with the most refs (ties by id), RestRefs the refs of
	// the others and Published how many there are.
	Rules     []MetricsRule `json:"rules"`
	RestRefs  uint64        `json:"restRefs"`
	Published int           `json:"published"`
	// Gate sums what the gates recorded over every session (the
	// evidence's figures).
	Gate projections.GateFigures `json:"gate"`
}

// MetricsRule is a rule's refs as /metrics names them.
type MetricsRule struct {
	ID   string `json:"id"`
	Path string `json:"path"`
	Refs uint64 `json:"refs"`
}

func metricsOf(src Source, led Ledger) Metrics {
	sum := src.Summary()
	m := Metrics{Ledger: led, Events: sum.Events, Tools: src.Tools(), Latencies: src.Latencies(),
		Sessions: sum.Sessions, SessionsHooksOnly: sum.SessionsHooksOnly, OpenDrafts: sum.Drafts}
	for _, e := range src.Evidence() {
		m.Gate.Add(e.Gate)
	}
	rules := src.RuleSummaries()
	m.Published = len(rules)
	slices.SortFunc(rules, func(a, b projections.RuleSummary) int {
		return cmp.Or(cmp.Compare(b.Refs, a.Refs), cmp.Compare(a.ID, b.ID))
	})
	for i, r := range rules {
		if i < MetricsTopRules {
			m.Rules = append(m.Rules, MetricsRule{ID: r.ID, Path: r.Path, Refs: r.Refs})
		} else {
			m.RestRefs += r.Refs
		}
	}
	return m
}
