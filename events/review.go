package events

// Event types of the review of drafts: what happened to a draft after an
// agent staged it. They are members of the drafts aggregate (IsDraft), so
// that each is decided against the draft's state with an expectation and
// an agent's change of a draft never lands between a decision and its
// record. They are not tool calls (IsTool is false) and carry no tool
// name. applied, declined and conflicted are final: the draft leaves the
// open drafts and the agent may stage a new one for its id.
const (
	// TypeDraftSubmit: a team draft was handed to the hub for review; the
	// draft is in_review and the agent can no longer change it.
	TypeDraftSubmit Type = "attest.draft.submit"
	// TypeDraftApply: a repository draft was written into the content tree
	// (clumsies drafts apply), or a team draft was accepted at the hub.
	TypeDraftApply Type = "attest.draft.apply"
	// TypeDraftDecline: a person declined the draft, with a reason.
	TypeDraftDecline Type = "attest.draft.decline"
	// TypeDraftConflict: the object changed since the draft's base (a
	// repository file's hash, a team object's revision), so the draft
	// cannot be applied as it is.
	TypeDraftConflict Type = "attest.draft.conflict"
)

// IsReview reports whether t records a review outcome of a draft.
func (t Type) IsReview() bool { return t.info().family == familyReview }

// ReviewData is the payload of the four review events. Which fields are
// set depends on the event and on where the draft's object lives: a
// repository draft has hashes, a team draft revisions.
type ReviewData struct {
	// DraftID is the id of the draft: its object's id, or the tmp- id of
	// a create draft.
	DraftID string `json:"draftId"`
	// Reviewer is who applied, declined or accepted the draft: the user
	// running clumsies drafts, or the hub member who reviewed it.
	Reviewer string `json:"reviewer,omitempty"`
	// Reason says why: required for decline and conflict.
	Reason string `json:"reason,omitempty"`
	// BaseHash and BaseRevision are what the draft was based on: the hash
	// of the repository file, the revision of the team object.
	BaseHash     string `json:"baseHash,omitempty"`
	BaseRevision uint64 `json:"baseRevision,omitempty"`
	// CurrentHash and CurrentRevision are what the object was when the
	// outcome was decided: for conflict the hash or revision that differs
	// from the base; for a repository apply the hash of the body written.
	CurrentHash     string `json:"currentHash,omitempty"`
	CurrentRevision uint64 `json:"currentRevision,omitempty"`
	// Revision is the team catalog revision an accepted draft wrote.
	Revision uint64 `json:"revision,omitempty"`
	// Diff is a unified diff of the draft's body against the object's
	// current body, for a repository conflict.
	Diff string `json:"diff,omitempty"`
}
