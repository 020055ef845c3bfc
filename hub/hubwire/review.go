package hubwire

import (
	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
)

// Review is a draft of a team object that a workspace submitted to the
// hub, as the review queue holds it: the draft (from the node's draft
// events in the aggregate) and where its review stands.
type Review struct {
	// ID is the id of the attest.draft.submit event that submitted it.
	ID          string          `json:"id"`
	Team        string          `json:"team"`
	WorkspaceID string          `json:"workspaceId"`
	Node        string          `json:"node"`
	Member      string          `json:"member,omitempty"`
	DraftID     string          `json:"draftId"`
	Resource    events.Resource `json:"resource"`
	Op          events.DraftOp  `json:"op"`
	Path        string          `json:"path,omitempty"`
	NewPath     string          `json:"newPath,omitempty"`
	Body        string          `json:"body,omitempty"`
	Description string          `json:"description,omitempty"`
	SessionID   string          `json:"sessionId,omitempty"`
	// BaseRevision is the team object's revision the draft was made on.
	BaseRevision uint64 `json:"baseRevision"`
	// SubmitSeq is the submit event's sequence in the node's ledger.
	SubmitSeq uint64 `json:"submitSeq"`
	Submitted string `json:"submitted"`
	// Status is in_review until the hub decides: applied (accepted),
	// declined or conflicted.
	Status   catalog.DraftStatus `json:"status"`
	Reviewer string              `json:"reviewer,omitempty"`
	Reason   string              `json:"reason,omitempty"`
	// Revision is the catalog revision an accept wrote; CurrentRevision
	// the object's revision a conflict found.
	Revision        uint64 `json:"revision,omitempty"`
	CurrentRevision uint64 `json:"currentRevision,omitempty"`
}

// Key returns the sort key of a review: its id.
func (r Review) Key() []string { return []string{r.ID} }
