package telemetry

import (
	"encoding/json"
	"slices"

	"github.com/clumsies/clumsies/events"
)

// usage returns the ids of the rules, workflows and context items a
// call's event names (never their bodies), once per item loaded or
// constraint referenced: rules[i] is the rule of constraints[i] for a
// memref. perRule says whether the ids count as usage (memload, memref).
// A failed call's payload names none.
func usage(ev events.Event) (rules, constraints []string, perRule bool) {
	if ev.Outcome == events.OutcomeError {
		return nil, nil, false
	}
	switch ev.Type {
	case events.TypeLoad:
		var d events.LoadData
		if json.Unmarshal(ev.Data, &d) == nil {
			for _, it := range d.Items {
				rules = append(rules, it.ID)
			}
		}
		return rules, nil, true
	case events.TypeRefer:
		var d events.ReferData
		if json.Unmarshal(ev.Data, &d) == nil {
			for _, r := range d.Refs {
				rules = append(rules, r.RuleID)
				constraints = append(constraints, r.ConstraintID)
			}
		}
		return rules, constraints, true
	default:
		if ev.Type.IsDraft() {
			var d events.DraftData
			if json.Unmarshal(ev.Data, &d) == nil && d.ID != "" {
				rules = append(rules, d.ID)
			}
		}
	}
	return rules, constraints, false
}

// sortedOnce returns the strings of s sorted, each once, leaving s as it
// was.
func sortedOnce(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}
