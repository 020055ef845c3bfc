package node

import (
	"context"
	"slices"

	"github.com/clumsies/clumsies/projections"
)

// RulesInScope returns the ids of the published rules and workflows whose
// paths match one of paths (workspace-relative, slash-separated), sorted:
// the owner matches them, so only the ids cross the socket, whatever the
// size of the catalog.
func (h *Handle) RulesInScope(ctx context.Context, paths []string) ([]string, error) {
	return mInScope.call(ctx, h, paths)
}

// inScope lists the items as List does (the team's overlaid) and keeps the
// ids of the published ones in scope for paths.
func (o *owner) inScope(ctx context.Context, paths []string) ([]string, error) {
	items, err := o.list(ctx, projections.Filter{})
	if err != nil {
		return nil, err
	}
	items = slices.DeleteFunc(items, func(it projections.Item) bool { return !it.Published })
	ids := []string{}
	for _, sc := range projections.InScope(items, paths) {
		ids = append(ids, sc.Item.ID)
	}
	slices.Sort(ids)
	return ids, nil
}
