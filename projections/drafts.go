package projections

import (
	"cmp"
	"slices"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// Draft operations, as the artifact tool names them.
const (
	OpCreate = "create"
	OpUpdate = "update"
	OpRename = "rename"
	OpDelete = "delete"
)

// Draft is a pending change to the content, written by the artifact tool
// and replayed from the ledger.
type Draft struct {
	// ID is the tmp- id of a create draft, the object id of any other
	// draft, or content.MetaPromptPath for the meta prompt.
	ID          string `json:"id"`
	Resource    string `json:"resource"` // context, rule or mpf
	Op          string `json:"op"`       // OpCreate, OpUpdate, OpRename or OpDelete
	Path        string `json:"path,omitempty"`
	NewPath     string `json:"newPath,omitempty"`
	Body        string `json:"body,omitempty"`
	BaseHash    string `json:"baseHash,omitempty"`
	Description string `json:"description,omitempty"`
	SessionID   string `json:"sessionId,omitempty"`
	Seq         uint64 `json:"seq"` // the last event that changed the draft
	Submitted   bool   `json:"submitted,omitempty"`
}

// draft is the in-memory form of a Draft with the hash of its body.
type draft struct {
	Draft
	hash string // content.Hash of Body, for create and update drafts
}

func newDraft(d Draft) *draft {
	out := &draft{Draft: d}
	if d.Op == OpCreate || d.Op == OpUpdate {
		out.hash = content.Hash([]byte(d.Body))
	}
	return out
}

// kind returns the content kind of a create draft.
func (d *draft) kind() content.Kind {
	switch d.Resource {
	case "mpf":
		return content.KindMPF
	case "context":
		return content.KindContext
	}
	return content.KindOfRulePath(d.Path)
}

// applyDraft applies the attest.draft.* events of successful artifact calls.
// The MCP layer validated the operation before appending it; the projector
// applies what the ledger says.
func (st *state) applyDraft(ev *events.Event, d *events.DraftData, ch *changes) {
	if d.ID == "" {
		return
	}
	cur := st.drafts[d.ID]
	next := Draft{
		ID: d.ID, Resource: d.Resource, Path: d.Path, Description: d.Description,
		SessionID: ev.SessionID, Seq: ev.Seq,
	}
	switch ev.Type {
	case events.TypeDraftCreate:
		next.Op, next.Body = OpCreate, d.Body
	case events.TypeDraftUpdate:
		if cur != nil && cur.Op == OpCreate {
			next = cur.Draft
			next.Body, next.SessionID, next.Seq = d.Body, ev.SessionID, ev.Seq
			if d.Description != "" {
				next.Description = d.Description
			}
		} else {
			next.Op, next.Body, next.BaseHash = OpUpdate, d.Body, d.BaseHash
		}
	case events.TypeDraftRename:
		next.Op, next.NewPath = OpRename, d.NewPath
	case events.TypeDraftDelete:
		if cur != nil && cur.Op == OpCreate {
			st.dropDraft(d.ID, ch)
			return
		}
		next.Op = OpDelete
	case events.TypeDraftDiscard:
		st.dropDraft(d.ID, ch)
		return
	default:
		return
	}
	st.setDraft(d.ID, newDraft(next), ch)
}

// submit applies draft.submit: the draft is handed to review.
func (st *state) submit(seq uint64, d *events.SubmitData, ch *changes) {
	cur, ok := st.drafts[d.DraftID]
	if !ok {
		return
	}
	next := *cur
	next.Submitted, next.Seq = true, seq
	st.setDraft(d.DraftID, &next, ch)
}

// setDraft stores the draft of id, or drops it if d is nil.
func (st *state) setDraft(id string, d *draft, ch *changes) {
	if d == nil {
		delete(st.drafts, id)
	} else {
		st.drafts[id] = d
	}
	if o, ok := st.objects[id]; ok {
		o.drafted = d != nil
	}
	ch.drafts[id] = struct{}{}
}

func (st *state) dropDraft(id string, ch *changes) {
	if _, ok := st.drafts[id]; ok {
		st.setDraft(id, nil, ch)
	}
}

// Draft returns the draft with this id, body included. It returns
// ErrNotFound if there is none.
func (s *Store) Draft(id string) (Draft, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, ok := s.st.drafts[id]
	if !ok {
		return Draft{}, ErrNotFound
	}
	return d.Draft, nil
}

// Drafts returns every draft, bodies included, sorted by id.
func (s *Store) Drafts() []Draft {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Draft, 0, len(s.st.drafts))
	for _, d := range s.st.drafts {
		out = append(out, d.Draft)
	}
	slices.SortFunc(out, func(a, b Draft) int { return cmp.Compare(a.ID, b.ID) })
	return out
}
