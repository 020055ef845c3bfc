package hubwire

import (
	"encoding/json"
)

// LedgerStream is the hub's own ledger: what the hub decided, as
// immutable events (catalog changes, review outcomes). Its subjects are
// hubledger.<team>.<workspaceId>.<type>, with "-" for the workspace of a
// team-wide event (a catalog change); a node of the team mirrors the
// events of its own workspace.
const LedgerStream = "HUB_LEDGER"

// LedgerPrefix is the first token of the hub ledger's subjects.
const LedgerPrefix = "hubledger"

// teamWide stands for the workspace of a team-wide event.
const teamWide = "-"

// Types of the hub's own events.
const (
	LedgerCatalogPublish = "catalog.publish" // an object of a team's catalog written
	LedgerCatalogRemove  = "catalog.remove"  // an object of a team's catalog removed
	LedgerReviewAccept   = "review.accept"   // a submitted draft accepted: the catalog written
	LedgerReviewDecline  = "review.decline"  // a submitted draft declined by a reviewer
	LedgerReviewConflict = "review.conflict" // a submitted draft whose base is no longer the object's revision
)

// LedgerEvent is one event of the hub's ledger.
type LedgerEvent struct {
	// ID is a ULID, or an id derived from what the event decides (so that
	// deciding twice stores it once).
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	Time        string          `json:"time"`
	Team        string          `json:"team"`
	WorkspaceID string          `json:"workspaceId,omitempty"`
	Data        json.RawMessage `json:"data"`
}

// CatalogEventData is the payload of catalog.publish and catalog.remove.
type CatalogEventData struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Path     string `json:"path"`
	Hash     string `json:"hash,omitempty"`
	Revision uint64 `json:"revision"`
	// By is who changed it: "push" or the reviewer of an accepted draft.
	By string `json:"by"`
}

// LedgerSubject is the subject of an event of type typ about team's
// workspace ws ("" for a team-wide event).
func LedgerSubject(team, ws, typ string) string {
	if ws == "" {
		ws = teamWide
	}
	return LedgerPrefix + "." + team + "." + ws + "." + typ
}

// ReviewOutcome is the payload of the hub's review.accept, review.decline
// and review.conflict events. The node that submitted the draft records
// it in its own ledger (attest.draft.apply, decline, conflict) under the
// hub event's id.
type ReviewOutcome struct {
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
