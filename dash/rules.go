package dash

import (
	"github.com/clumsies/clumsies/content"
)

// Rules is the API's list of rules: GET /api/rules.
type Rules struct {
	Items []RuleItem `json:"items"`
}

// RuleItem is a rule, workflow or context in the list, with its refs.
// Context has no constraints and is never referenced.
type RuleItem struct {
	ID          string       `json:"id"`
	Kind        content.Kind `json:"kind"`
	Path        string       `json:"path"`
	Name        string       `json:"name"`
	Group       string       `json:"group,omitempty"`
	Description string       `json:"description,omitempty"`
	Refs        uint64       `json:"refs"`
	Constraints int          `json:"constraints"`
	// Unused counts the constraints never referenced.
	Unused int `json:"unusedConstraints"`
}

func rules(src Source) Rules {
	usage := make(map[string]map[string]uint64) // rule -> constraint -> refs
	refs := make(map[string]uint64)
	for _, u := range src.Usage() {
		refs[u.ID] = u.Refs
		byID := make(map[string]uint64, len(u.Constraints))
		for _, c := range u.Constraints {
			byID[c.ID] = c.Refs
		}
		usage[u.ID] = byID
	}
	out := Rules{Items: []RuleItem{}}
	for _, o := range src.Objects() {
		if o.Kind != content.KindRule && o.Kind != content.KindWorkflow && o.Kind != content.KindContext {
			continue
		}
		it := RuleItem{
			ID: o.ID, Kind: o.Kind, Path: o.Path, Name: o.Name, Group: o.Group, Description: o.Description,
			Refs: refs[o.ID], Constraints: len(o.Constraints),
		}
		for _, c := range o.Constraints {
			if usage[o.ID][c.ID] == 0 {
				it.Unused++
			}
		}
		out.Items = append(out.Items, it)
	}
	return out
}
