package hub

import (
	"fmt"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// StatsSummary answers q with bounded lists: the totals, the trend, the
// coverage, the top rules and the evidence's sums as Stats has them, and
// the first hubwire.SummaryItems of each list (rules, members, evidence
// per rule, sessions), with how many each left off; its size does not
// grow with the sessions. The lists are whole in their pages
// (StatsRules, StatsMembers, StatsEvidenceRules, StatsSessions,
// StatsChecks).
func (h *Hub) StatsSummary(q Query) (hubwire.Stats, error) {
	st, err := h.Stats(q)
	if err != nil {
		return st, err
	}
	for _, r := range st.Rules {
		if r.Path != "" && r.Refs == 0 && len(st.NeverReferred) < hubwire.SummaryItems {
			st.NeverReferred = append(st.NeverReferred, r)
		}
	}
	st.More = hubwire.StatsMore{
		Rules:         capList(&st.Rules),
		Members:       capList(&st.Members),
		EvidenceRules: capList(&st.Evidence.Rules),
		Sessions:      capList(&st.Evidence.Sessions),
		Checks:        capList(&st.Evidence.Checks),
	}
	return st, nil
}

// capList keeps the first hubwire.SummaryItems of *items and returns how
// many it left off.
func capList[T any](items *[]T) int {
	n := len(*items) - hubwire.SummaryItems
	if n <= 0 {
		return 0
	}
	*items = (*items)[:hubwire.SummaryItems]
	return n
}

// StatsRules answers one page of q's rules (Stats' Rules); with used,
// only the rules referred to or loaded in the window.
func (h *Hub) StatsRules(q Query, used bool, cursor string, limit int) (hubwire.Page[hubwire.RuleStats], error) {
	st, err := h.Stats(q)
	if err != nil {
		return hubwire.Page[hubwire.RuleStats]{}, err
	}
	rules := st.Rules
	if used {
		rules = rules[:0:0]
		for _, r := range st.Rules {
			if r.Refs > 0 || r.Loads > 0 {
				rules = append(rules, r)
			}
		}
	}
	return page(rules, hubwire.RuleStats.Key, cursor, limit)
}

// StatsMembers answers one page of q's members (Stats' Members).
func (h *Hub) StatsMembers(q Query, cursor string, limit int) (hubwire.Page[hubwire.MemberStats], error) {
	st, err := h.Stats(q)
	if err != nil {
		return hubwire.Page[hubwire.MemberStats]{}, err
	}
	return page(st.Members, hubwire.MemberStats.Key, cursor, limit)
}

// StatsEvidenceRules answers one page of q's evidence per rule of a
// workspace (Stats' Evidence.Rules).
func (h *Hub) StatsEvidenceRules(q Query, cursor string, limit int) (hubwire.Page[hubwire.RuleEvidence], error) {
	ev, err := h.proj.evidence(q)
	if err != nil {
		return hubwire.Page[hubwire.RuleEvidence]{}, err
	}
	return page(ev.Rules, hubwire.RuleEvidence.Key, cursor, limit)
}

// StatsSessions answers one page of q's sessions (Stats'
// Evidence.Sessions).
func (h *Hub) StatsSessions(q Query, cursor string, limit int) (hubwire.Page[hubwire.SessionEvidence], error) {
	ev, err := h.proj.evidence(q)
	if err != nil {
		return hubwire.Page[hubwire.SessionEvidence]{}, err
	}
	return page(ev.Sessions, hubwire.SessionEvidence.Key, cursor, limit)
}

// StatsChecks answers one page of q's checks per rule of a team (Stats'
// Evidence.Checks).
func (h *Hub) StatsChecks(q Query, cursor string, limit int) (hubwire.Page[hubwire.RuleChecks], error) {
	ev, err := h.proj.evidence(q)
	if err != nil {
		return hubwire.Page[hubwire.RuleChecks]{}, err
	}
	return page(ev.Checks, hubwire.RuleChecks.Key, cursor, limit)
}

// evidence answers the evidence part of q alone. The answer is shared:
// the caller must not change it.
func (p *projector) evidence(q Query) (hubwire.Evidence, error) {
	from, to, err := q.window()
	if err != nil {
		return hubwire.Evidence{}, err
	}
	snap := p.db.NewSnapshot()
	defer snap.Close()
	ea, err := evidenceAt(snap, &p.caches, checkpointOf(snap), q, day(from), day(to))
	return ea.ev, err
}

// page returns the page of items (in the order of key) after cursor,
// classifying a cursor the hub did not give as invalid.
func page[T any](items []T, key func(T) []string, cursor string, limit int) (hubwire.Page[T], error) {
	p, err := hubwire.PageOf(items, key, cursor, limit)
	if err != nil {
		return p, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return p, nil
}
