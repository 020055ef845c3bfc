package hub

import (
	"slices"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// statsCaches are the answers the projector computed at the read models'
// latest checkpoint (checkpointCache): the whole stats of a query, and
// the evidence of a query alone, which the stats and the
// evidence's pages share, and the gates' sums per team that /metrics
// reads (TeamGates). Reading the summary and then every page of a
// list costs one computation while the read models stay; a change
// computes each answer asked for again, once, from the parts of its days
// (dayCache): those of the days the change touched computed again, the
// others as kept. The zero value is ready.
type statsCaches struct {
	stats    checkpointCache[hubwire.Stats]
	evidence checkpointCache[evidenceAnswer]
	gates    checkpointCache[[]hubwire.TeamGate]

	dayCounts   dayCache[*countSums]
	daySessions dayCache[[]hubwire.SessionEvidence]
}

// moved drops every answer of a checkpoint older than applied, the one
// the projector just committed, and the days' parts it made stale.
func (c *statsCaches) moved(applied uint64, s stale) {
	c.stats.moved(applied)
	c.evidence.moved(applied)
	c.gates.moved(applied)
	c.dayCounts.forget(s, prefixCountsVersion)
	c.daySessions.forget(s, prefixEvidenceVersion)
}

// evidenceAnswer is the evidence part of a query: the answer's, and the
// sums per member of a team that the stats' members take.
type evidenceAnswer struct {
	ev       hubwire.Evidence
	byMember map[teamMember]*memberEvidence
}

// evidenceAt returns the evidence of q over the days from to to in snap,
// the read models at checkpoint applied, from caches or computed and kept
// there. The answer is shared: the caller must not change it.
func evidenceAt(snap *pebble.Snapshot, caches *statsCaches, applied uint64, q Query, from, to string) (evidenceAnswer, error) {
	return caches.evidence.get(applied, keyOf(q, from, to), func() (evidenceAnswer, error) {
		ev, byMember, err := evidenceStats(snap, caches, q, from, to)
		return evidenceAnswer{ev, byMember}, err
	})
}

// checkpointOf returns the checkpoint of the read models in snap: the
// last aggregate sequence whose rows it holds.
func checkpointOf(snap *pebble.Snapshot) uint64 {
	v, closer, err := snap.Get(keyCheckpoint)
	if err != nil {
		return 0
	}
	defer closer.Close()
	return getUint(v)
}

// cloneStats returns st with its own copies of the lists a caller changes
// (Hub.Stats fills the rules' paths, StatsSummary the rules never
// referred to): st is shared by the cache.
func cloneStats(st hubwire.Stats) hubwire.Stats {
	st.Rules = slices.Clone(st.Rules)
	st.TopRules = slices.Clone(st.TopRules)
	st.NeverReferred = slices.Clone(st.NeverReferred)
	return st
}
