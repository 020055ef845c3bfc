package events

import "testing"

// TestTable_RowsDescribed: every row of either ledger says who writes it,
// what its events record, and has a payload; every review outcome of the
// hub names the review type the workspace records it as.
func TestTable_RowsDescribed(t *testing.T) {
	for _, r := range table {
		if r.family == 0 || r.payload == nil || r.title == "" || r.description == "" {
			t.Errorf("row %s of ledger %d: family %d, payload %t, title %q, description %q: want all",
				r.typ, r.ledger, r.family, r.payload != nil, r.title, r.description)
		}
		hubOutcome := r.ledger == LedgerHub && r.family == familyReview
		if hubOutcome != (r.recordedAs != "") || r.recordedAs != "" && !r.recordedAs.IsReview() {
			t.Errorf("row %s of ledger %d is recorded as %q", r.typ, r.ledger, r.recordedAs)
		}
	}
}
