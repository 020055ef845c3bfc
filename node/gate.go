package node

import (
	"context"

	"github.com/clumsies/clumsies/projections"
)

// GateQuery asks what the pre-tool gate needs of a session about to change
// files: Paths are workspace-relative.
type GateQuery struct {
	Session string   `json:"session"`
	Paths   []string `json:"paths"`
}

var mGate = register("gate", (*owner).gate)

// Gate returns the rules and workflows in scope for q.Paths (team objects
// included) that session q.Session has not loaded (projections.Gate says
// what counts), with every event appended before the call applied: a
// memload the agent has just made counts.
func (h *Handle) Gate(ctx context.Context, q GateQuery) (projections.Gate, error) {
	return mGate.call(ctx, h, q)
}

// gate catches the read models up with the log, then reads the items as
// List does (the team's overlaid), the versions the session received,
// and, for the items in scope it received some version of, the version
// in force as View reads it.
func (o *owner) gate(ctx context.Context, q GateQuery) (projections.Gate, error) {
	if _, err := o.catchUp(ctx, struct{}{}); err != nil {
		return projections.Gate{}, err
	}
	items, err := o.list(ctx, projections.Filter{})
	if err != nil {
		return projections.Gate{}, err
	}
	loads, err := read(o, func(s *projections.Store) (projections.Loads, error) { return s.SessionLoads(q.Session), nil })
	if err != nil {
		return projections.Gate{}, err
	}
	return projections.GateOf(items, q.Paths, loads, func(id string) (projections.Version, error) {
		it, err := o.view(ctx, id)
		return projections.InForce(it), err
	})
}
