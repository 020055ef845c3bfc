package stats

import "github.com/clumsies/clumsies/evidence"

// The "checks" part of `clumsies stats --json` is evidence's sums of the
// rules' checks (evidence.SumChecks), the same the dashboard's rule page
// and the hub give: these names keep the report's types where they were.
type (
	RuleChecks       = evidence.CheckTotals
	ConstraintChecks = evidence.ConstraintTotals
	VersionChecks    = evidence.VersionTotals
	Share            = evidence.Share
)
