package dash

import "github.com/clumsies/clumsies/projections"

// Rules is the API's list of rules: GET /api/rules. Context has no
// constraints and is never referenced.
type Rules struct {
	Items []projections.RuleSummary `json:"items"`
}

func rules(src Source) Rules {
	return Rules{Items: src.RuleSummaries()}
}
