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
	"github.com/clumsies/clumsies/projections/engine"
)

// draft is the in-memory form of a catalog.Draft: everything but its body,
// which stays on disk (a draft body may be 256 KiB, and agents may stage
// many), with the hash of the body and the sequence of the event that set
// it, which names the body's row.
type draft struct {
	catalog.Draft        // Body is always empty
	hash          string // content.Hash of the body, for create and update drafts
	bodySeq       uint64 // the event that set the body, for create and update drafts
	// described is catalog.Describe of the body: a create draft's
	// description in listings (Description is the agent's note to the
	// reviewer, never an object's description).
	described string
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
	BodySeq     uint64 `json:"bodySeq,omitempty"`
	BaseHash    string `json:"baseHash,omitempty"`
	Description string `json:"description,omitempty"`
	Described   string `json:"described,omitempty"`
	SessionID   string `json:"sessionId,omitempty"`
	Seq         uint64 `json:"seq"`
	Status      string `json:"status"`
	Reviewer    string `json:"reviewer,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Revision    uint64 `json:"revision,omitempty"`
	Diff        string `json:"diff,omitempty"`
}

func (d *draft) row() draftRow {
	return draftRow{
		ID: d.ID, Resource: string(d.Resource), Op: string(d.Op), Path: d.Path, NewPath: d.NewPath,
		Hash: d.hash, BodySeq: d.bodySeq, BaseHash: d.BaseHash, Description: d.Description, Described: d.described, SessionID: d.SessionID,
		Seq: d.Seq, Status: string(d.Status), Reviewer: d.Reviewer, Reason: d.Reason, Revision: d.Revision, Diff: d.Diff,
	}
}

func (r draftRow) draft() *draft {
	return &draft{hash: r.Hash, bodySeq: r.BodySeq, described: r.Described, Draft: catalog.Draft{
		ID: r.ID, Resource: events.Resource(r.Resource), Op: events.DraftOp(r.Op), Path: r.Path, NewPath: r.NewPath,
		BaseHash: r.BaseHash, Description: r.Description, SessionID: r.SessionID,
		Seq: r.Seq, Status: catalog.DraftStatus(r.Status), Reviewer: r.Reviewer, Reason: r.Reason,
		Revision: r.Revision, Diff: r.Diff,
	}}
}

// The drafts' keys: d/m/<id> holds the draftRow of the open draft of an
// id, d/c/<id>/<seq> the draftRow of a closed one (its review ended with
// the event seq), d/b/<id>/<seq> the body a create or update draft got
// with event seq, read from disk when asked for. A closed draft keeps its
// body row; an open draft's old body goes when a newer one replaces it.
// Sequences are 20 zero-padded digits, so an id's rows sort by sequence.
const (
	prefixDraft       = "d/"
	prefixDraftMeta   = "d/m/"
	prefixDraftClosed = "d/c/"
	prefixDraftBody   = "d/b/"
)

func draftKey(id string) []byte { return []byte(prefixDraftMeta + id) }

func seqKey(prefix, id string, seq uint64) string { return fmt.Sprintf("%s%s/%020d", prefix, id, seq) }

func draftBodyKey(id string, seq uint64) string { return seqKey(prefixDraftBody, id, seq) }

// draftsModel is the read model of drafts, folded with
// catalog.EvolveDraft: the open draft of each id, and every closed one.
type draftsModel struct {
	byID map[string]*draft // open drafts
	// closed holds the closed drafts by their d/c/ key; last the newest
	// closed draft of each id.
	closed map[string]*draft
	last   map[string]*draft
	// unborn holds, by tmp- id, the create drafts whose last review ended
	// without the file (declined or conflicted): memdisc and memload show
	// them with the reason until the id has an open draft again.
	unborn  map[string]*draft
	touched map[string]struct{} // ids whose open draft changed, since the last write
	// newClosed holds the d/c/ keys added since the last write.
	newClosed []string
	// bodies holds the bodies applied since the last write, by d/b/ key: a
	// body to write, or nil for a body to delete.
	bodies map[string]*string
}

func newDraftsModel() *draftsModel {
	return &draftsModel{
		byID: make(map[string]*draft), closed: make(map[string]*draft), last: make(map[string]*draft),
		unborn: make(map[string]*draft), touched: make(map[string]struct{}), bodies: make(map[string]*string),
	}
}

func (m *draftsModel) Prefixes() []string { return []string{prefixDraft} }
func (m *draftsModel) DiskOnly() []string { return []string{prefixDraftBody} }

// Folds implements folder: every event of the drafts aggregate.
func (m *draftsModel) Folds() []events.Type {
	return slices.DeleteFunc(events.Types(), func(t events.Type) bool { return !t.IsDraft() })
}

// apply folds an event of the drafts aggregate with catalog.EvolveDraft,
// the one fold of the drafts. The body an event carries goes to disk at
// the next write; memory keeps its hash.
func (m *draftsModel) Apply(d decoded) {
	switch d.payload.(type) {
	case *events.DraftData, *events.ReviewData:
	default:
		return
	}
	id := catalog.DraftKey(d.payload)
	if id == "" {
		return
	}
	old := m.byID[id]
	var cur *catalog.Draft
	if old != nil {
		cur = &old.Draft
	}
	next := catalog.EvolveDraft(cur, d.ev, d.payload)
	if next == cur {
		return
	}
	m.touched[id] = struct{}{}
	switch {
	case next == nil:
		delete(m.byID, id)
		m.dropBody(old)
	case next.Status.Final():
		delete(m.byID, id)
		cd := &draft{Draft: *next, hash: old.hash, bodySeq: old.bodySeq, described: old.described}
		cd.Body = ""
		k := seqKey(prefixDraftClosed, id, d.ev.Seq)
		m.closed[k], m.last[id] = cd, cd
		m.noteUnborn(cd)
		m.newClosed = append(m.newClosed, k)
	default:
		nd := &draft{Draft: *next}
		_, carries := d.payload.(*events.DraftData)
		switch {
		case hasBody(next.Op) && carries:
			body := next.Body
			nd.hash, nd.bodySeq, nd.described = content.Hash([]byte(body)), d.ev.Seq, catalog.Describe(body)
			m.dropBody(old)
			m.bodies[draftBodyKey(id, nd.bodySeq)] = &body
		case hasBody(next.Op):
			nd.hash, nd.bodySeq, nd.described = old.hash, old.bodySeq, old.described // a submit: the body stays
		default:
			m.dropBody(old)
		}
		nd.Body = ""
		m.byID[id] = nd
	}
}

// noteUnborn records closed draft d, the newest of its id, in unborn when
// it is a create draft of a rule, workflow or context that did not end
// applied, and takes its id out of unborn otherwise.
func (m *draftsModel) noteUnborn(d *draft) {
	if d.Op == events.DraftOpCreate && d.Resource != events.ResourceMPF && d.Status != catalog.StatusApplied {
		m.unborn[d.ID] = d
		return
	}
	delete(m.unborn, d.ID)
}

// dropBody deletes the body of open draft d, if it has one.
func (m *draftsModel) dropBody(d *draft) {
	if d != nil && d.bodySeq != 0 {
		m.bodies[draftBodyKey(d.ID, d.bodySeq)] = nil
	}
}

func (m *draftsModel) Write(w *engine.RowWriter) {
	for id := range m.touched {
		if d, ok := m.byID[id]; ok {
			w.JSON(draftKey(id), d.row())
		} else {
			w.Del(draftKey(id))
		}
	}
	for _, k := range m.newClosed {
		w.JSON([]byte(k), m.closed[k].row())
	}
	for k, body := range m.bodies {
		if body != nil {
			w.Set([]byte(k), []byte(*body))
		} else {
			w.Del([]byte(k))
		}
	}
	clear(m.touched)
	clear(m.bodies)
	m.newClosed = m.newClosed[:0]
}

func (m *draftsModel) Load(k string, v []byte) error {
	var r draftRow
	switch {
	case strings.HasPrefix(k, prefixDraftMeta):
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		if r.ID != k[len(prefixDraftMeta):] {
			return fmt.Errorf("row holds draft %q", r.ID)
		}
		m.byID[r.ID] = r.draft()
	case strings.HasPrefix(k, prefixDraftClosed):
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		if !strings.HasPrefix(k[len(prefixDraftClosed):], r.ID+"/") {
			return fmt.Errorf("row holds draft %q", r.ID)
		}
		d := r.draft()
		m.closed[k], m.last[r.ID] = d, d // rows come in key order: the newest of an id last
		m.noteUnborn(d)
	default:
		return fmt.Errorf("unknown draft row")
	}
	return nil
}

// draftBody reads the body of draft d from disk; "" for drafts without
// one. The caller holds s.mu and has checked that the store is open.
func (s *Store) draftBody(d *draft) (string, error) {
	if !hasBody(d.Op) || d.bodySeq == 0 {
		return "", nil
	}
	return s.get([]byte(draftBodyKey(d.ID, d.bodySeq)), "the body of draft "+d.ID)
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

// HasOpenDraft reports whether id has an open draft.
func (s *Store) HasOpenDraft(id string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.st.drafts.byID[id]
	return ok
}

// ClosedDrafts returns every draft whose review ended (applied, declined,
// conflicted), bodies included (read from disk), oldest outcome first. It
// returns ErrClosed after Close and the storage error if a body cannot be
// read.
func (s *Store) ClosedDrafts() ([]catalog.Draft, error) {
	return s.closedDrafts(func(*draft) bool { return true })
}

// DraftHistory returns the closed drafts of id, bodies included, oldest
// outcome first; none when its reviews never ended.
func (s *Store) DraftHistory(id string) ([]catalog.Draft, error) {
	return s.closedDrafts(func(d *draft) bool { return d.ID == id })
}

func (s *Store) closedDrafts(keep func(*draft) bool) ([]catalog.Draft, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return nil, ErrClosed
	}
	out := []catalog.Draft{}
	for _, d := range s.st.drafts.closed {
		if !keep(d) {
			continue
		}
		dc := d.Draft
		var err error
		if dc.Body, err = s.draftBody(d); err != nil {
			return nil, err
		}
		out = append(out, dc)
	}
	slices.SortFunc(out, func(a, b catalog.Draft) int { return cmp.Compare(a.Seq, b.Seq) })
	return out, nil
}

// DraftFacts returns what a decision of the drafts aggregate reads for q,
// all from one state of the read models (see catalog.DraftFacts); its
// draft carries no body (no decision reads one), its object the published
// front matter when q asks for it. It returns ErrClosed
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
			f.Object = &catalog.Target{ID: o.ID(), Kind: o.Kind(), Path: o.Path(), Hash: o.Hash()}
			if k := o.Kind(); q.FrontMatter && (k == content.KindRule || k == content.KindWorkflow) {
				r, err := s.published(o)
				if err != nil {
					return catalog.DraftFacts{}, fmt.Errorf("read the published body of %s: %w", q.ID, err)
				}
				f.Object.FrontMatter = content.FrontMatter(r.body)
			}
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
