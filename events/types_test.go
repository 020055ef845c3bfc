package events_test

import (
	"testing"

	"github.com/clumsies/clumsies/events"
)

// TestType_Families pins which registered types are tool calls, hook
// events and review outcomes, and which aggregate each belongs to.
func TestType_Families(t *testing.T) {
	review := map[events.Type]bool{
		events.TypeDraftSubmit: true, events.TypeDraftApply: true, events.TypeDraftDecline: true, events.TypeDraftConflict: true,
	}
	hook := map[events.Type]bool{events.TypeSessionStart: true, events.TypeUserPrompt: true, events.TypeStopBlocked: true, events.TypeToolGated: true, events.TypeFileEdit: true, events.TypeCheck: true}
	tools := map[events.Type]bool{
		events.TypeSetup: true, events.TypeDiscover: true, events.TypeLoad: true, events.TypeRefer: true,
		events.TypeAgentReport: true, events.TypeReject: true, events.TypeDraftCreate: true, events.TypeDraftUpdate: true,
		events.TypeDraftRename: true, events.TypeDraftDelete: true, events.TypeDraftDiscard: true, events.TypeArtifactError: true,
	}
	for _, typ := range events.Types() {
		if got := typ.IsReview(); got != review[typ] {
			t.Errorf("%s.IsReview(): got %t", typ, got)
		}
		if got := typ.IsHook(); got != hook[typ] {
			t.Errorf("%s.IsHook(): got %t", typ, got)
		}
		if got := typ.IsTool(); got != tools[typ] {
			t.Errorf("%s.IsTool(): got %t", typ, got)
		}
		if review[typ] && typ.Aggregate() != events.AggregateDrafts {
			t.Errorf("%s is in aggregate %q, want drafts", typ, typ.Aggregate())
		}
	}
	for typ := range review {
		if !typ.Valid() {
			t.Errorf("%s is not registered", typ)
		}
		p, _ := events.NewPayload(typ)
		if _, ok := p.(*events.ReviewData); !ok {
			t.Errorf("%s has payload %T, want *ReviewData", typ, p)
		}
	}
}
