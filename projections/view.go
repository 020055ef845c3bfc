package projections

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// Item is the draft-aware current state of one id, as memdisc lists it and
// memload loads it: a published object with its draft, if any, laid over
// it, or a create draft.
type Item struct {
	ID          string       `json:"id"`
	Kind        content.Kind `json:"kind"`
	Path        string       `json:"path"`
	Name        string       `json:"name"`
	Group       string       `json:"group,omitempty"`
	Hash        string       `json:"hash"`
	Description string       `json:"description,omitempty"`
	// Paths are the globs of the files a rule or workflow applies to
	// (Object.Paths); an item with a draft has those of its published
	// version until the draft is applied and published.
	Paths []string `json:"paths,omitempty"`
	Body  string   `json:"body,omitempty"` // View only
	// Constraints are parsed from the current body (the draft's, if it has
	// one); rules and workflows only, View only.
	Constraints []content.Constraint `json:"constraints,omitempty"`
	// ConstraintsHash is ConstraintsHash(Constraints), set by View with
	// them: for a published object it is kept with its row, so that
	// reading it again does not hash the constraints again. VersionOf
	// computes it when it is not set.
	ConstraintsHash string         `json:"constraintsHash,omitempty"`
	HasDraft        bool           `json:"hasDraft"`
	DraftOp         events.DraftOp `json:"draftOp,omitempty"`       // create, update or rename
	DraftBaseHash   string         `json:"draftBaseHash,omitempty"` // the published hash a draft is based on
	// DraftStatus is the status of the open draft (draft, in_review), or,
	// for a published object without one, of its last closed draft
	// (applied, declined, conflicted), with its reason; "" when the id
	// never had a draft.
	DraftStatus catalog.DraftStatus `json:"draftStatus,omitempty"`
	DraftReason string              `json:"draftReason,omitempty"`
	Published   bool                `json:"published"` // false for a create draft
	// Source is where the item comes from: "team" for an object of the
	// team's catalog at the hub (laid over the read models by the owner),
	// "" for the repository's content tree.
	Source string `json:"source,omitempty"`
	// Revision is a team object's revision in the team's catalog.
	Revision uint64 `json:"revision,omitempty"`
	// Shadows is the id of the repository object a team object hides
	// (same namespace and path: the team object wins); ShadowedBy, on the
	// repository object, the team object that hides it.
	Shadows    string `json:"shadows,omitempty"`
	ShadowedBy string `json:"shadowedBy,omitempty"`
	// InForce is, for a published object with an open update or rename
	// draft, the object as published, body and constraints included: the
	// rule in force until the draft is accepted, which memload serves
	// every session. View only; nil otherwise.
	InForce *Item `json:"inForce,omitempty"`
}

// Filter selects items in List. Empty fields select everything.
type Filter struct {
	Kind  string // exact kind: rule, workflow or context
	Group string // exact group
	// Query is a case-insensitive search: every white-space separated word
	// must occur in the id, path, name, group or description.
	Query string
}

// View returns the draft-aware current state of one id, body and
// constraints included: an object id, the tmp- id of a create draft, or
// content.MetaPromptPath. An update or create draft gives the draft's body
// and hash, a rename draft the new path; the object as published under an
// update or rename draft is the item's InForce.
//
// The tmp- id of a create draft declined or conflicted gives that draft,
// with no open draft (HasDraft false), its status and reason.
//
// It returns ErrNotFound for an unknown id and for an object with a delete
// draft, ErrClosed after Close, ctx.Err() if ctx has ended, and the storage
// error if a body cannot be read.
func (s *Store) View(ctx context.Context, id string) (Item, error) {
	if err := ctx.Err(); err != nil {
		return Item{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return Item{}, ErrClosed
	}
	o, d := s.st.manifest.objects[id], s.st.drafts.byID[id]
	var it Item
	switch {
	case d != nil && d.Op == events.DraftOpCreate:
		it = createdItem(d)
	case o == nil && d == nil && s.st.drafts.unborn[id] != nil:
		u := s.st.drafts.unborn[id]
		it = unbornItem(u)
		body, err := s.draftBody(u)
		if err != nil {
			return Item{}, err
		}
		it.Body = body
		if it.Kind == content.KindRule || it.Kind == content.KindWorkflow {
			it.setConstraints(content.ParseConstraints(it.Name, it.Body))
		}
		return it, nil
	case o == nil:
		return Item{}, ErrNotFound
	case d == nil:
		it = publishedItem(o)
		r, err := s.published(o)
		if err != nil {
			return Item{}, err
		}
		it.withRow(r)
		s.st.drafts.outcome(&it)
		return it, nil
	default:
		var ok bool
		if it, ok = overlaid(o, d); !ok {
			return Item{}, ErrNotFound
		}
		in := publishedItem(o)
		r, err := s.published(o)
		if err != nil {
			return Item{}, err
		}
		in.withRow(r)
		it.InForce = &in
	}
	if d != nil && hasBody(d.Op) {
		body, err := s.draftBody(d)
		if err != nil {
			return Item{}, err
		}
		it.Body = body
	}
	if d.Op == events.DraftOpRename {
		body, err := s.body(id)
		if err != nil {
			return Item{}, err
		}
		it.Body = body
	}
	if d != nil && (it.Kind == content.KindRule || it.Kind == content.KindWorkflow) {
		it.setConstraints(content.ParseConstraints(it.Name, it.Body))
	}
	return it, nil
}

// withRow gives a published item its body and constraints as read by
// published.
func (it *Item) withRow(r cachedRow) {
	it.Body = r.body
	it.Constraints, it.ConstraintsHash = r.constraints, ""
	if it.Kind == content.KindRule || it.Kind == content.KindWorkflow {
		it.ConstraintsHash = r.constraintsHash
	}
}

// setConstraints gives it constraints cs and their hash.
func (it *Item) setConstraints(cs []content.Constraint) {
	it.Constraints, it.ConstraintsHash = cs, ConstraintsHash(cs)
}

// List returns the draft-aware inventory that memdisc shows, without
// bodies, constraints and the meta prompt: published rules, workflows and
// context with their drafts laid over them (objects with a delete draft
// left out), and create drafts under their tmp- ids, a declined or
// conflicted one (no open draft) with its status and reason. Items are sorted by
// namespace (rules and workflows, then context), then path. It returns
// ErrClosed after Close and ctx.Err() if ctx has ended.
func (s *Store) List(ctx context.Context, f Filter) ([]Item, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	words := strings.Fields(strings.ToLower(f.Query))
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return nil, ErrClosed
	}
	// Items with a draft are few: they are sorted apart and merged into
	// the objects' order, and the objects they stand for are skipped.
	var drafted []Item
	var hidden map[*object]bool
	for _, d := range s.st.drafts.byID {
		o := s.st.manifest.objects[d.ID]
		if o != nil {
			if hidden == nil {
				hidden = make(map[*object]bool)
			}
			hidden[o] = true
		}
		var it Item
		switch {
		case d.Op == events.DraftOpCreate:
			if d.Resource == "mpf" {
				continue
			}
			it = createdItem(d)
		case o == nil || o.ns() == content.NSMPF:
			continue
		default:
			var ok bool
			if it, ok = overlaid(o, d); !ok {
				continue
			}
		}
		if f.selectsItem(&it, words) {
			drafted = append(drafted, it)
		}
	}
	for id, u := range s.st.drafts.unborn {
		if s.st.drafts.byID[id] != nil || s.st.manifest.objects[id] != nil {
			continue
		}
		if it := unbornItem(u); f.selectsItem(&it, words) {
			drafted = append(drafted, it)
		}
	}
	slices.SortFunc(drafted, compareItems)

	// Every object without a query; with one, those the search index
	// finds, put in the same order.
	var objs []*object
	if len(words) > 0 {
		objs = s.st.manifest.search.sorted(words)
	} else {
		objs = s.st.manifest.inventory().objects
	}
	// Without a kind or group every object found is listed: room for them
	// all at once, rather than growing a slice of large Items (with a
	// query of 50 hits, growing was 40 KiB of garbage per call).
	var out []Item
	if f.Kind == "" && f.Group == "" {
		out = make([]Item, 0, len(objs)+len(drafted))
	}
	for _, o := range objs {
		if hidden[o] {
			continue
		}
		fields := o.fields()
		kind := content.Kind(fields[fieldKind])
		if content.NamespaceOf(kind) == content.NSMPF || !f.selects(kind, fields[fieldGroup]) {
			continue
		}
		it := itemOf(fields)
		s.st.drafts.outcome(&it)
		for len(drafted) > 0 && compareItems(drafted[0], it) < 0 {
			out, drafted = append(out, drafted[0]), drafted[1:]
		}
		out = append(out, it)
	}
	return append(out, drafted...), nil
}

// compareItems orders items by namespace, then path, then id.
func compareItems(a, b Item) int {
	return cmp.Or(cmp.Compare(content.NamespaceOf(a.Kind).Rank(), content.NamespaceOf(b.Kind).Rank()),
		strings.Compare(a.Path, b.Path), strings.Compare(a.ID, b.ID))
}

// publishedItem returns the item of a published object without a draft.
func publishedItem(o *object) Item { return itemOf(o.fields()) }

// itemOf returns the item of a published object without a draft whose
// fields are f.
func itemOf(f [stringFields]string) Item {
	return Item{
		ID: f[fieldID], Kind: content.Kind(f[fieldKind]), Path: f[fieldPath], Name: f[fieldName], Group: f[fieldGroup],
		Hash: f[fieldHash], Description: f[fieldDescription], Paths: splitScope(f[fieldScope]), Published: true,
	}
}

// overlaid returns the item of published object o with its draft d laid
// over it, and false if d deletes it. The description stays the published
// file's: the draft's description is a note to its reviewer.
func overlaid(o *object, d *draft) (Item, bool) {
	it := publishedItem(o)
	it.HasDraft, it.DraftOp, it.DraftBaseHash, it.DraftStatus = true, d.Op, cmp.Or(d.BaseHash, it.Hash), d.Status
	switch d.Op {
	case events.DraftOpDelete:
		return Item{}, false
	case events.DraftOpUpdate:
		it.Hash = d.hash
	case events.DraftOpRename:
		it.Path, it.Name, it.Group = d.NewPath, content.NameOf(d.NewPath), content.GroupOf(d.NewPath)
		if o.ns() == content.NSRule {
			it.Kind = content.KindOfRulePath(d.NewPath)
		}
	}
	return it, true
}

// createdItem returns the item of a create draft, without body.
func createdItem(d *draft) Item {
	return Item{
		ID: d.ID, Kind: d.kind(), Path: d.Path, Name: content.NameOf(d.Path),
		Group: content.GroupOf(d.Path), Hash: d.hash, Description: d.described,
		HasDraft: true, DraftOp: events.DraftOpCreate, DraftStatus: d.Status,
	}
}

// unbornItem returns the item of a create draft whose review ended
// without the file (declined or conflicted), without body: no open draft,
// its status and the reason.
func unbornItem(d *draft) Item {
	it := createdItem(d)
	it.HasDraft, it.DraftReason = false, d.Reason
	return it
}

// outcome sets the status and reason of the last closed draft of it, a
// published object without an open draft.
func (m *draftsModel) outcome(it *Item) {
	if len(m.last) == 0 {
		return
	}
	if c := m.last[it.ID]; c != nil {
		it.DraftStatus, it.DraftReason = c.Status, c.Reason
	}
}

// selects reports whether the kind and group filters let an item through.
func (f Filter) selects(kind content.Kind, group string) bool {
	return (f.Kind == "" || string(kind) == f.Kind) && (f.Group == "" || group == f.Group)
}

// Matcher returns the test List applies to each item: kind, group and
// every query word (case-insensitive) in its id, path, name, group or
// description. For items that do not come from the read models (the
// team's catalog).
func (f Filter) Matcher() func(it *Item) bool {
	words := strings.Fields(strings.ToLower(f.Query))
	return func(it *Item) bool { return f.selectsItem(it, words) }
}

// selectsItem applies the whole filter, query words lower-cased, to it.
func (f Filter) selectsItem(it *Item, words []string) bool {
	return f.selects(it.Kind, it.Group) &&
		(len(words) == 0 || containsAll(searchText(it.ID, it.Path, it.Name, it.Group, it.Description), words))
}

// searchText returns the lower-cased text that query words are looked for
// in. Fields are separated by a line feed, which no word holds, so a word
// never matches across two fields. The name and the group are usually
// part of the path; then they are left out, as they would match nothing
// the path does not.
func searchText(id, path, name, group, description string) string {
	var b strings.Builder
	b.Grow(len(id) + len(path) + len(name) + len(group) + len(description) + 4)
	b.WriteString(id)
	b.WriteByte('\n')
	b.WriteString(path)
	for _, f := range [...]string{name, group} {
		if !strings.Contains(path, f) {
			b.WriteByte('\n')
			b.WriteString(f)
		}
	}
	if description != "" {
		b.WriteByte('\n')
		b.WriteString(description)
	}
	return strings.ToLower(b.String())
}
