package projections

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// draft is the in-memory form of a catalog.Draft with the hash of its body.
type draft struct {
	catalog.Draft
	hash string // content.Hash of Body, for create and update drafts
}

func newDraft(d catalog.Draft) *draft {
	out := &draft{Draft: d}
	if d.Op == events.DraftOpCreate || d.Op == events.DraftOpUpdate {
		out.hash = content.Hash([]byte(d.Body))
	}
	return out
}

// kind returns the content kind of a create draft.
func (d *draft) kind() content.Kind { return d.KindOf() }

// draftRow is how a draft is stored: its own type, so that the API type
// can change without changing the layout.
type draftRow struct {
	ID          string `json:"id"`
	Resource    string `json:"resource"`
	Op          string `json:"op"`
	Path        string `json:"path,omitempty"`
	NewPath     string `json:"newPath,omitempty"`
	Body        string `json:"body,omitempty"`
	BaseHash    string `json:"baseHash,omitempty"`
	Description string `json:"description,omitempty"`
	SessionID   string `json:"sessionId,omitempty"`
	Seq         uint64 `json:"seq"`
	Submitted   bool   `json:"submitted,omitempty"`
}

func (d *draft) row() draftRow {
	return draftRow{
		ID: d.ID, Resource: string(d.Resource), Op: string(d.Op), Path: d.Path, NewPath: d.NewPath,
		Body: d.Body, BaseHash: d.BaseHash, Description: d.Description, SessionID: d.SessionID,
		Seq: d.Seq, Submitted: d.Submitted,
	}
}

func (r draftRow) draft() *draft {
	return newDraft(catalog.Draft{
		ID: r.ID, Resource: events.Resource(r.Resource), Op: events.DraftOp(r.Op), Path: r.Path, NewPath: r.NewPath,
		Body: r.Body, BaseHash: r.BaseHash, Description: r.Description, SessionID: r.SessionID,
		Seq: r.Seq, Submitted: r.Submitted,
	})
}

// prefixDraft is the drafts' key prefix: d/<id> holds a draftRow.
const prefixDraft = "d/"

func draftKey(id string) []byte { return []byte(prefixDraft + id) }

// draftsModel is the read model of pending drafts, one per id, folded with
// catalog.EvolveDraft.
type draftsModel struct {
	byID    map[string]*draft
	touched map[string]struct{} // ids, since the last write
}

func newDraftsModel() *draftsModel {
	return &draftsModel{byID: make(map[string]*draft), touched: make(map[string]struct{})}
}

func (m *draftsModel) prefix() string { return prefixDraft }

// apply folds an event of the drafts aggregate (or a submit or review of
// a draft) with catalog.EvolveDraft, the one fold of the drafts.
func (m *draftsModel) apply(d decoded) {
	switch d.payload.(type) {
	case *events.DraftData, *events.SubmitData, *events.ReviewData:
	default:
		return
	}
	id := catalog.DraftKey(d.payload)
	if id == "" {
		return
	}
	var cur *catalog.Draft
	if dr := m.byID[id]; dr != nil {
		cur = &dr.Draft
	}
	switch next := catalog.EvolveDraft(cur, d.ev, d.payload); {
	case next == cur:
		return
	case next == nil:
		delete(m.byID, id)
	default:
		m.byID[id] = newDraft(*next)
	}
	m.touched[id] = struct{}{}
}

func (m *draftsModel) write(w *rowWriter) {
	for id := range m.touched {
		if d, ok := m.byID[id]; ok {
			w.json(draftKey(id), d.row())
		} else {
			w.del(draftKey(id))
		}
	}
	clear(m.touched)
}

func (m *draftsModel) load(k string, v []byte) error {
	var r draftRow
	if err := json.Unmarshal(v, &r); err != nil {
		return err
	}
	if r.ID != k[len(prefixDraft):] {
		return fmt.Errorf("row holds draft %q", r.ID)
	}
	m.byID[r.ID] = r.draft()
	return nil
}

// Draft returns the draft with this id, body included. It returns
// ErrNotFound if there is none and ErrClosed after Close.
func (s *Store) Draft(id string) (catalog.Draft, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return catalog.Draft{}, ErrClosed
	}
	d, ok := s.st.drafts.byID[id]
	if !ok {
		return catalog.Draft{}, ErrNotFound
	}
	return d.Draft, nil
}

// Drafts returns every draft, bodies included, sorted by id.
func (s *Store) Drafts() []catalog.Draft {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]catalog.Draft, 0, len(s.st.drafts.byID))
	for _, d := range s.st.drafts.byID {
		out = append(out, d.Draft)
	}
	slices.SortFunc(out, func(a, b catalog.Draft) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// DraftFacts returns what a decision of the drafts aggregate reads for q,
// all from one state of the read models (see catalog.DraftFacts). It
// returns ErrClosed after Close and ctx.Err() if ctx has ended.
func (s *Store) DraftFacts(ctx context.Context, q catalog.DraftQuery) (catalog.DraftFacts, error) {
	if err := ctx.Err(); err != nil {
		return catalog.DraftFacts{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return catalog.DraftFacts{}, ErrClosed
	}
	f := catalog.DraftFacts{Seq: s.st.aggregates[events.AggregateDrafts]}
	if q.ID != "" {
		if o, ok := s.st.manifest.objects[q.ID]; ok {
			f.Object = &catalog.Target{ID: o.ID, Kind: o.Kind, Path: o.Path, Hash: o.Hash}
		}
		if d, ok := s.st.drafts.byID[q.ID]; ok {
			dc := d.Draft
			f.Draft = &dc
		}
	}
	if q.Path != "" {
		f.Holder = s.st.pathHolder(q.Resource, q.Path, q.ID)
	}
	return f, nil
}

// pathHolder returns the id of what holds path in resource's namespace (a
// published object, a create draft, an object a rename draft moves there),
// other than self; "" when the path is free.
func (st *state) pathHolder(resource events.Resource, path, self string) string {
	ns := catalog.NamespaceOfResource(resource)
	if id, ok := st.manifest.paths[nsPath{ns, path}]; ok && id != self {
		return id
	}
	if id := catalog.TmpID(resource, path); id != self {
		if _, ok := st.drafts.byID[id]; ok {
			return id
		}
	}
	if ns == content.NSMPF {
		return ""
	}
	var holders []string
	for _, d := range st.drafts.byID {
		if d.Op == events.DraftOpRename && d.NewPath == path && d.ID != self && d.Resource == resource {
			holders = append(holders, d.ID)
		}
	}
	if len(holders) == 0 {
		return ""
	}
	return slices.Min(holders)
}
