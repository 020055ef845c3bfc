package node

import (
	"context"
	"sync"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/rulecheck"
)

// ChecksQuery asks for the checks of the rules in scope of some files:
// Paths are workspace-relative.
type ChecksQuery struct {
	Paths []string `json:"paths"`
}

var mChecks = register("checks", (*owner).checks)

// Checks returns the rules and workflows in scope for q.Paths (team
// objects included, Source "team") that declare checks, each with the
// checks of its version in force (the published one under an open
// draft) and that version's hash, with every event appended before the
// call applied.
func (h *Handle) Checks(ctx context.Context, q ChecksQuery) ([]rulecheck.Rule, error) {
	return mChecks.call(ctx, h, q)
}

// checkCache holds the checks parsed from each body hash: a body's
// checks never change.
type checkCache struct {
	mu     sync.Mutex
	byHash map[string][]content.Check
}

// maxCachedChecks bounds the versions whose checks the owner keeps.
const maxCachedChecks = 1024

func (o *owner) checks(ctx context.Context, q ChecksQuery) ([]rulecheck.Rule, error) {
	if _, err := o.catchUp(ctx, struct{}{}); err != nil {
		return nil, err
	}
	items, err := o.list(ctx, projections.Filter{})
	if err != nil {
		return nil, err
	}
	out := []rulecheck.Rule{}
	for _, sc := range projections.InScope(items, q.Paths) {
		if sc.Item.Kind != content.KindRule && sc.Item.Kind != content.KindWorkflow {
			continue
		}
		it, err := o.view(ctx, sc.Item.ID)
		if err != nil {
			return nil, err
		}
		if it.InForce != nil {
			it = *it.InForce
		}
		cs := o.parsedChecks(it)
		if len(cs) == 0 {
			continue
		}
		out = append(out, rulecheck.Rule{ID: sc.Item.ID, Path: it.Path, Hash: it.Hash, Source: sc.Item.Source, Paths: sc.Item.Paths, Checks: cs})
	}
	return out, nil
}

// parsedChecks are the checks of it's body, parsed once per hash. A body
// whose checks do not parse (a team object the hub took before checks
// existed) has none.
func (o *owner) parsedChecks(it projections.Item) []content.Check {
	c := &o.checkCache
	c.mu.Lock()
	defer c.mu.Unlock()
	if cs, ok := c.byHash[it.Hash]; ok {
		return cs
	}
	cs, err := content.ParseChecks(content.NameOf(it.Path), it.Body)
	if err != nil {
		o.n.logger.Warn("a rule's checks are not read", "id", it.ID, "err", err)
	}
	if c.byHash == nil || len(c.byHash) >= maxCachedChecks {
		c.byHash = map[string][]content.Check{}
	}
	c.byHash[it.Hash] = cs
	return cs
}
