package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// TeamGates returns, per team in order, the file edits the hooks recorded
// and what the gates recorded over every session of the team's nodes, as
// the evidence read model holds them (the /metrics counters): the
// figures of the team's stats evidence over all time. It answers one
// item per team, whatever the sessions; the rows are summed once per
// checkpoint of the read models and the sums kept until the next.
func (h *Hub) TeamGates(ctx context.Context) ([]hubwire.TeamGate, error) {
	return h.proj.teamGates(ctx)
}

// teamGates answers TeamGates from the projector's read models.
func (p *projector) teamGates(ctx context.Context) ([]hubwire.TeamGate, error) {
	snap := p.db.NewSnapshot()
	defer snap.Close()
	return p.caches.gates.get(checkpointOf(snap), statsKey{}, func() ([]hubwire.TeamGate, error) {
		return sumTeamGates(ctx, snap)
	})
}

// gateSums is the part of a session's evidence row (evidenceRow) that
// TeamGates sums: the rest of the row is not decoded. The row keeps the
// gate's figures under the names evidence.Gate gives them.
type gateSums struct {
	Edits uint64        `json:"edits"`
	Gate  evidence.Gate `json:"gate"`
}

// ctxEvery is how many rows sumTeamGates reads between looks at its
// context (it looks before the first).
const ctxEvery = 1024

// sumTeamGates sums the evidence rows of snap per team.
func sumTeamGates(ctx context.Context, snap *pebble.Snapshot) ([]hubwire.TeamGate, error) {
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: prefixEvidence(), UpperBound: prefixEnd(prefixEvidence())})
	if err != nil {
		return nil, fmt.Errorf("read the evidence: %w", err)
	}
	defer it.Close()
	teams := map[string]*hubwire.TeamGate{}
	n := 0
	for it.First(); it.Valid(); it.Next() {
		if n%ctxEvery == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("sum the gates' evidence: %w", ctx.Err())
		}
		n++
		// v|team|workspace|node|session: the team is read in place.
		k := it.Key()
		if bytes.Count(k, []byte(sep)) != 4 {
			continue
		}
		team, _, _ := bytes.Cut(k[len(prefixEvidence()):], []byte(sep))
		var row gateSums
		if err := json.Unmarshal(it.Value(), &row); err != nil {
			return nil, fmt.Errorf("read the evidence row %q: %w", k, err)
		}
		tg := teams[string(team)]
		if tg == nil {
			tg = &hubwire.TeamGate{Team: string(team)}
			teams[tg.Team] = tg
		}
		tg.Edits += row.Edits
		tg.Gate.Add(row.Gate)
	}
	if err := it.Error(); err != nil {
		return nil, fmt.Errorf("read the evidence: %w", err)
	}
	out := make([]hubwire.TeamGate, 0, len(teams))
	for _, team := range slices.Sorted(maps.Keys(teams)) {
		out = append(out, *teams[team])
	}
	return out, nil
}
