package events

import "strings"

// Type names an event type. Tool events share the family "attest", as do
// the hook events (hook.go) and the review outcomes of drafts (review.go);
// catalog events are written by publishing.
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
)

// registry maps every known type to a constructor of its payload.
var registry = map[Type]func() any{
	TypeSetup:          func() any { return new(SetupData) },
	TypeDiscover:       func() any { return new(DiscoverData) },
	TypeLoad:           func() any { return new(LoadData) },
	TypeRefer:          func() any { return new(ReferData) },
	TypeAgentReport:    func() any { return new(AgentReportData) },
	TypeReject:         func() any { return new(RejectData) },
	TypeDraftCreate:    func() any { return new(DraftData) },
	TypeDraftUpdate:    func() any { return new(DraftData) },
	TypeDraftRename:    func() any { return new(DraftData) },
	TypeDraftDelete:    func() any { return new(DraftData) },
	TypeDraftDiscard:   func() any { return new(DraftData) },
	TypeArtifactError:  func() any { return new(FailureData) },
	TypeCatalogPublish: func() any { return new(PublishData) },
	TypeCatalogRemove:  func() any { return new(RemoveData) },
	TypeDraftSubmit:    func() any { return new(ReviewData) },
	TypeDraftApply:     func() any { return new(ReviewData) },
	TypeDraftDecline:   func() any { return new(ReviewData) },
	TypeDraftConflict:  func() any { return new(ReviewData) },
	TypeSessionStart:   func() any { return new(SessionStartData) },
	TypeUserPrompt:     func() any { return new(UserPromptData) },
	TypeStopBlocked:    func() any { return new(StopBlockedData) },
	TypeCheckpoint:     func() any { return new(CheckpointData) },
}

// Valid reports whether t is a registered type.
func (t Type) Valid() bool { _, ok := registry[t]; return ok }

// IsTool reports whether events of type t record a tool call. Hook events
// (IsHook) and review events (IsReview) share the attest family but are
// not tool calls.
func (t Type) IsTool() bool {
	return strings.HasPrefix(string(t), "attest.") && !t.IsHook() && !t.IsReview()
}

// IsDraft reports whether t is an event of the drafts aggregate: one of
// the artifact draft operations or a review outcome (IsReview).
func (t Type) IsDraft() bool { return strings.HasPrefix(string(t), "attest.draft.") }

// Types returns every registered type in a stable order.
func Types() []Type {
	return []Type{
		TypeSetup, TypeDiscover, TypeLoad, TypeRefer, TypeAgentReport, TypeReject,
		TypeDraftCreate, TypeDraftUpdate, TypeDraftRename, TypeDraftDelete, TypeDraftDiscard,
		TypeArtifactError,
		TypeDraftSubmit, TypeDraftApply, TypeDraftDecline, TypeDraftConflict,
		TypeCatalogPublish, TypeCatalogRemove,
		TypeSessionStart, TypeUserPrompt, TypeStopBlocked,
		TypeCheckpoint,
	}
}

// NewPayload returns a pointer to a zero payload of the type registered for
// t. Failed tool calls carry FailureData whatever their type; use
// Event.Payload, which knows that.
func NewPayload(t Type) (any, bool) {
	f, ok := registry[t]
	if !ok {
		return nil, false
	}
	return f(), true
}

// ChangesCatalog reports whether applying e changes what the tools read:
// the published manifest or the drafts. A successful draft, catalog or
// review event does; tool calls that only leave evidence (setup, discover,
// load, refer, report, reject) and failed calls do not. A writer waits for
// the projections to apply an event only when it changes the catalog, so
// that the next read sees it and the other calls answer sooner.
func (e Event) ChangesCatalog() bool {
	if e.Outcome != OutcomeOK {
		return false
	}
	switch e.Type {
	case TypeCatalogPublish, TypeCatalogRemove:
		return true
	}
	return e.Type.IsDraft()
}
