package projections

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// draft is the in-memory form of a catalog.Draft: everything but its body,
// which stays on disk (a draft body may be 256 KiB, and agents may stage
// many), with the hash of the body.
type draft struct {
	catalog.Draft        // Body is always empty
	hash          string // content.Hash of the body, for create and update drafts
}

// kind returns the content kind of a create draft.
func (d *draft) kind() content.Kind { return d.KindOf() }

// hasBody reports whether drafts of op carry a body.
func hasBody(op events.DraftOp) bool { return op == events.DraftOpCreate || op == events.DraftOpUpdate }

// draftRow is how a draft is stored, apart from its body: its own type, so
// that the API type can change without changing the layout.
type draftRow struct {
	ID          string `json:"id"`
	Resource    string `json:"resource"`
	Op          string `json:"op"`
	Path        string `json:"path,omitempty"`
	NewPath     string `json:"newPath,omitempty"`
	Hash        string `json:"hash,omitempty"`
	BaseHash    string `json:"baseHash,omitempty"`
	Description string `json:"description,omitempty"`
	SessionID   string `json:"sessionId,omitempty"`
	Seq         uint64 `json:"seq"`
	Submitted   bool   `json:"submitted,omitempty"`
}

func (d *draft) row() draftRow {
	return draftRow{
		ID: d.ID, Resource: string(d.Resource), Op: string(d.Op), Path: d.Path, NewPath: d.NewPath,
		Hash: d.hash, BaseHash: d.BaseHash, Description: d.Description, SessionID: d.SessionID,
		Seq: d.Seq, Submitted: d.Submitted,
	}
}

func (r draftRow) draft() *draft {
	return &draft{hash: r.Hash, Draft: catalog.Draft{
		ID: r.ID, Resource: events.Resource(r.Resource), Op: events.DraftOp(r.Op), Path: r.Path, NewPath: r.NewPath,
		BaseHash: r.BaseHash, Description: r.Description, SessionID: r.SessionID,
		Seq: r.Seq, Submitted: r.Submitted,
	}}
}

// The drafts' keys: d/m/<id> holds a draftRow, d/b/<id> the body of a
// create or update draft, read from disk when asked for.
const (
	prefixDraft     = "d/"
	prefixDraftMeta = "d/m/"
	prefixDraftBody = "d/b/"
)

func draftKey(id string) []byte     { return []byte(prefixDraftMeta + id) }
func draftBodyKey(id string) []byte { return []byte(prefixDraftBody + id) }

// draftsModel is the read model of pending drafts, one per id, folded with
// catalog.EvolveDraft.
type draftsModel struct {
	byID    map[string]*draft
	touched map[string]struct{} // ids, since the last write
	// bodies holds the bodies applied since the last write, by id: a body
	// to write, or nil for a body to delete. A draft whose body did not
	// change (a submit) has no entry.
	bodies map[string]*string
}

func newDraftsModel() *draftsModel {
	return &draftsModel{byID: make(map[string]*draft), touched: make(map[string]struct{}), bodies: make(map[string]*string)}
}

func (m *draftsModel) prefix() string   { return prefixDraft }
func (m *draftsModel) diskOnly() string { return prefixDraftBody }

// apply folds an event of the drafts aggregate (or a submit or review of
// a draft) with catalog.EvolveDraft, the one fold of the drafts. The body
// an event carries goes to disk at the next write; memory keeps its hash.
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
	next := catalog.EvolveDraft(cur, d.ev, d.payload)
	switch {
	case next == cur:
		return
	case next == nil:
		delete(m.byID, id)
		m.bodies[id] = nil
	default:
		nd := &draft{Draft: *next}
		_, carries := d.payload.(*events.DraftData)
		switch {
		case hasBody(next.Op) && carries:
			body := next.Body
			nd.hash, m.bodies[id] = content.Hash([]byte(body)), &body
		case hasBody(next.Op):
			nd.hash = m.byID[id].hash // a submit: the body stays
		default:
			m.bodies[id] = nil
		}
		nd.Body = ""
		m.byID[id] = nd
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
	for id, body := range m.bodies {
		if body != nil {
			w.set(draftBodyKey(id), []byte(*body))
		} else {
			w.del(draftBodyKey(id))
		}
	}
	clear(m.touched)
	clear(m.bodies)
}

func (m *draftsModel) load(k string, v []byte) error {
	if !strings.HasPrefix(k, prefixDraftMeta) {
		return fmt.Errorf("unknown draft row")
	}
	var r draftRow
	if err := json.Unmarshal(v, &r); err != nil {
		return err
	}
	if r.ID != k[len(prefixDraftMeta):] {
		return fmt.Errorf("row holds draft %q", r.ID)
	}
	m.byID[r.ID] = r.draft()
	return nil
}

// draftBody reads the body of draft d from disk; "" for drafts without
// one. The caller holds s.mu and has checked that the store is open.
func (s *Store) draftBody(d *draft) (string, error) {
	if !hasBody(d.Op) {
		return "", nil
	}
	return s.get(draftBodyKey(d.ID), "the body of draft "+d.ID)
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
	out := d.Draft
	var err error
	out.Body, err = s.draftBody(d)
	return out, err
}

// Drafts returns every draft, bodies included (read from disk), sorted by
// id. It returns ErrClosed after Close and the storage error if a body
// cannot be read.
func (s *Store) Drafts() ([]catalog.Draft, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return nil, ErrClosed
	}
	out := make([]catalog.Draft, 0, len(s.st.drafts.byID))
	for _, d := range s.st.drafts.byID {
		dc := d.Draft
		var err error
		if dc.Body, err = s.draftBody(d); err != nil {
			return nil, err
		}
		out = append(out, dc)
	}
	slices.SortFunc(out, func(a, b catalog.Draft) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// DraftFacts returns what a decision of the drafts aggregate reads for q,
// all from one state of the read models (see catalog.DraftFacts); its
// draft carries no body (no decision reads one). It returns ErrClosed
// after Close and ctx.Err() if ctx has ended.
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
