package node

import "github.com/clumsies/clumsies/projections"

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
}

// StatsOf reads the Stats of a store.
func StatsOf(s *projections.Store) Stats {
	return Stats{Summary: s.Summary(), Usage: s.Usage(), Tools: s.Tools(), Sessions: s.Sessions(), Compliance: s.Compliance(), Evidence: s.Evidence()}
}

// Rebuilt is the outcome of a rebuild: the events replayed and the digest
// of the rebuilt read models.
type Rebuilt struct {
	Events uint64 `json:"events"`
	Digest string `json:"digest"`
}
