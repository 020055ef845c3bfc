package events

// Type names an event type. Tool events share the family "attest", as do
// the hook events (hook.go) and the review outcomes of drafts (review.go);
// catalog events are written by publishing. What the code knows of each
// type is its row in table (table.go).
type Type string

// Event types written for tool calls, one per tool (artifact: one per op).
const (
	TypeSetup         Type = "attest.setup"
	TypeDiscover      Type = "attest.discover"
	TypeLoad          Type = "attest.load"
	TypeRefer         Type = "attest.refer"
	TypeAgentReport   Type = "attest.agent_report"
	TypeReject        Type = "attest.reject"
	TypeDraftCreate   Type = "attest.draft.create"
	TypeDraftUpdate   Type = "attest.draft.update"
	TypeDraftRename   Type = "attest.draft.rename"
	TypeDraftDelete   Type = "attest.draft.delete"
	TypeDraftDiscard  Type = "attest.draft.discard"
	TypeArtifactError Type = "attest.artifact" // a failed artifact call whose op could not be read
)

// Event types that are not tool calls.
const (
	TypeCatalogPublish Type = "catalog.publish"
	TypeCatalogRemove  Type = "catalog.remove"
	TypeCatalogReid    Type = "catalog.reid"
)

// Valid reports whether t is a registered type.
func (t Type) Valid() bool { _, ok := byType[t]; return ok }

// IsTool reports whether events of type t record a tool call. Hook events
// (IsHook) and review events (IsReview) share the attest family but are
// not tool calls.
func (t Type) IsTool() bool { return t.info().family == familyTool }

// IsDraft reports whether t is an event of the drafts aggregate: one of
// the artifact draft operations or a review outcome (IsReview).
func (t Type) IsDraft() bool { return t.Aggregate() == AggregateDrafts }

// DraftOp returns the artifact operation whose call records an event of
// type t, "" for a type no artifact operation records.
func (t Type) DraftOp() DraftOp { return t.info().op }

// Title returns a few words on what an event of type t records, "" for an
// unknown type.
func (t Type) Title() string { return t.info().title }

// Description returns what an event of type t records and when it is
// written, "" for an unknown type.
func (t Type) Description() string { return t.info().description }

// Types returns every registered type of a workspace's ledger in a stable
// order.
func Types() []Type { return typesOf(LedgerWorkspace) }

// NewPayload returns a pointer to a zero payload of the type registered for
// t. Failed tool calls carry FailureData whatever their type; use
// Event.Payload, which knows that.
func NewPayload(t Type) (any, bool) {
	r, ok := byType[t]
	if !ok {
		return nil, false
	}
	return r.payload(), true
}

// ChangesCatalog reports whether applying e changes what the tools read:
// the published manifest or the drafts. A successful event of an
// aggregate (a draft, catalog or review event) does; tool calls that only
// leave evidence (setup, discover, load, refer, report, reject) and failed
// calls do not. A writer waits for
// the projections to apply an event only when it changes the catalog, so
// that the next read sees it and the other calls answer sooner.
func (e Event) ChangesCatalog() bool {
	return e.Outcome == OutcomeOK && e.Type.Aggregate() != ""
}
