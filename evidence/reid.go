package evidence

// Reid folds a catalog.reid of rule from to rule to: what the session did
// under from, the versions it received included (Loads), counts for to
// from then on, with what it did under to. A ref of from keeps the
// judgement it had when it was made, against the loads of from. It
// reports whether the row changed.
func (r *Row) Reid(from, to string) bool {
	if from == to {
		return false
	}
	moved := r.reidChecks(from, to)
	moved = r.Loads.reid(from, to) || moved
	old, ok := r.Rules[from]
	if !ok {
		return moved
	}
	delete(r.Rules, from)
	re := r.rule(to)
	re.InScope += old.InScope
	re.UnloadedEdits += old.UnloadedEdits
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
	ids := r.named()
	for id := range r.Checks {
		if !r.Names(id) {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		if to := of(id); to != id {
			changed = r.Reid(id, to) || changed
		}
	}
	return changed
}

// reidChecks moves what the checks of rule from found to rule to (kept
// apart: a finding of from stays one). It reports whether the row
// changed.
func (r *Row) reidChecks(from, to string) bool {
	old, ok := r.Checks[from]
	if !ok {
		return false
	}
	delete(r.Checks, from)
	c := r.checkRow(to)
	if c.Runs == 0 {
		c.Hash, c.Loaded = old.Hash, old.Loaded
	}
	c.Runs += old.Runs
	for k, f := range old.Findings {
		if _, ok := c.Findings[k]; !ok && len(c.Findings) < MaxFindings {
			if c.Findings == nil {
				c.Findings = map[string]*FindingRow{}
			}
			c.Findings[k] = f
		}
	}
	return true
}
