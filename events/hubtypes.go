package events

// Ledger names the ledger events of a type are written to.
type Ledger uint8

// The ledgers.
const (
	// LedgerWorkspace is a workspace's ledger, of Events. The methods of
	// Type (Valid, Aggregate, ...) and Types speak of its types.
	LedgerWorkspace Ledger = iota
	// LedgerHub is the hub's own ledger (hubwire.LedgerStream): what the hub
	// decided, as Events with their Team set. Its catalog
	// events share their names with the workspace's but not their
	// payload, so a type is known by its name and its ledger together.
	LedgerHub
)

// AggregateTeam is the aggregate of a team's events in the hub's ledger
// (every type of the hub's ledger): its catalog's changes and the
// outcomes of its reviews. A hub decides a push or a review on the team's
// state as of its newest event and appends on the condition that it is
// still the newest, as a workspace does for its drafts.
const AggregateTeam Aggregate = "team"

// HubAggregate returns the aggregate events of type t of the hub's ledger
// belong to, "" for a type that is not of the hub's ledger.
func HubAggregate(t Type) Aggregate {
	if r, ok := hubByType[t]; ok {
		return r.aggregate
	}
	return ""
}

// Event types of the hub's ledger.
const (
	TypeHubCatalogPublish Type = "catalog.publish" // an object of a team's catalog written
	TypeHubCatalogRemove  Type = "catalog.remove"  // an object of a team's catalog removed
	TypeReviewAccept      Type = "review.accept"   // a submitted draft accepted: the catalog written
	TypeReviewDecline     Type = "review.decline"  // a submitted draft declined by a reviewer
	TypeReviewConflict    Type = "review.conflict" // a submitted draft whose base is no longer the object's revision
)

// HubTypes returns every type of the hub's ledger in a stable order.
func HubTypes() []Type { return typesOf(LedgerHub) }

// NewHubPayload is NewPayload for type t of the hub's ledger.
func NewHubPayload(t Type) (any, bool) {
	r, ok := hubByType[t]
	if !ok {
		return nil, false
	}
	return r.payload(), true
}

// HubOutcome returns the review type the workspace records the hub's
// review outcome t as (review.accept: attest.draft.apply, ...); ok is
// false when t is no review outcome of the hub.
func HubOutcome(t Type) (Type, bool) {
	r, ok := hubByType[t]
	if !ok || r.recordedAs == "" {
		return "", false
	}
	return r.recordedAs, true
}

// HubCatalogData is the payload of the hub's catalog.publish and
// catalog.remove. The event is the truth of the team's catalog: the
// catalog's key-value entry is derived from it (Whole).
type HubCatalogData struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	Path string `json:"path"`
	Hash string `json:"hash,omitempty"`
	// Revision is the revision of the entry the change wrote, in events
	// of hubs that wrote the entry before the event; absent from whole
	// events, whose entry is written after them (its revision is the
	// entry's).
	Revision uint64 `json:"revision,omitempty"`
	// By is who changed it: "push" or the reviewer of an accepted draft.
	By string `json:"by"`
	// Description and Body are the object as written, and AcceptedReview
	// the review whose accept wrote it (catalog.publish).
	Description    string `json:"description,omitempty"`
	Body           string `json:"body,omitempty"`
	AcceptedReview string `json:"acceptedReview,omitempty"`
	// Whole says the event holds the whole change, from which the
	// catalog's entry is derived. Events of hubs that wrote the entry
	// first lack it: their entries are in the catalog already.
	Whole bool `json:"whole,omitempty"`
}

// ReviewOutcomeData is the payload of the hub's review.accept,
// review.decline and review.conflict events. The node that submitted the
// draft records it in its own ledger (HubOutcome) under the hub event's
// id.
type ReviewOutcomeData struct {
	ReviewID        string `json:"reviewId"`
	DraftID         string `json:"draftId"`
	Node            string `json:"node"`
	SubmitSeq       uint64 `json:"submitSeq"`
	Reviewer        string `json:"reviewer,omitempty"`
	Reason          string `json:"reason,omitempty"`
	BaseRevision    uint64 `json:"baseRevision,omitempty"`
	CurrentRevision uint64 `json:"currentRevision,omitempty"`
	Revision        uint64 `json:"revision,omitempty"`
}
