package evidence

import (
	"maps"
	"slices"
)

// Reid folds a catalog.reid of rule from to rule to: what the session did
// under from counts for to from then on, with what it did under to. A ref
// of from keeps the judgement it had when it was made, against the loads
// of from. It reports whether the row changed.
func (r *Row) Reid(from, to string) bool {
	old, ok := r.Rules[from]
	if !ok || from == to {
		return false
	}
	delete(r.Rules, from)
	re := r.rule(to)
	re.InScope += old.InScope
	re.UnloadedEdits += old.UnloadedEdits
	re.Loaded = re.Loaded || old.Loaded
	re.Refs += old.Refs
	re.UnloadedRefs += old.UnloadedRefs
	re.Denials += old.Denials
	re.Warnings += old.Warnings
	re.Ungated += old.Ungated
	re.StopGateBlocks += old.StopGateBlocks
	return true
}

// Follow applies Reid(id, of(id)) to every rule of the row that of names
// by another id (a rule reided since the row was last folded). It reports
// whether the row changed.
func (r *Row) Follow(of func(id string) string) bool {
	changed := false
	for _, id := range slices.Sorted(maps.Keys(r.Rules)) {
		if to := of(id); to != id {
			changed = r.Reid(id, to) || changed
		}
	}
	return changed
}
