package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// The drafts aggregate: the changes agents stage with the artifact tool.
// DecideDraft is the only place that decides what an operation does;
// EvolveDraft is the only place that folds the events it leads to. Both
// are pure: the caller reads DraftFacts, decides, and appends the decided
// event on the condition that the drafts aggregate is still at Facts.Seq
// (events.Log.AppendExpecting), reading and deciding again on a conflict.
//
// One id has at most one open draft (status draft or in_review). What an
// operation does to the open draft already there:
//
//	existing draft | status    | create       | update          | rename          | delete           | discard
//	---------------+-----------+--------------+-----------------+-----------------+------------------+--------
//	none           | -         | new draft    | new draft       | new draft       | new draft        | not_found
//	create (tmp-)  | draft     | draft_exists | replaces body   | incompatible    | discards it      | discards it
//	update         | draft     | -            | replaces body   | incompatible    | incompatible     | discards it
//	rename         | draft     | -            | incompatible    | replaces target | incompatible     | discards it
//	delete         | draft     | -            | incompatible    | incompatible    | no change        | discards it
//	any            | in_review | -            | incompatible    | incompatible    | incompatible     | incompatible
//
// A draft whose review ended (applied, declined, conflicted: review.go) is
// no longer open: for these operations its id has no draft, and a new one
// starts over with status draft.
//
// (incompatible = incompatible_draft.) A change never silently throws away
// another kind of change: an agent that wants to, discards first. A
// submitted draft is in review and is left alone. create fails draft_exists
// when a published object, a create draft or a renamed object holds the path
// in the same namespace (rules and workflows share one, context has its
// own), and rename fails the same way for its new path. An id of the wrong
// resource (a rule id with resource context) fails invalid_target_kind, as
// does rename with resource mpf: the META_PROMPT's path is fixed.
//
// A draft belongs to the session that made it: update, rename and delete
// of an id whose draft another session made fail incompatible_draft (they
// would throw that session's work away); that session, or an explicit
// discard, changes it. So two agents racing to change one object cannot
// both be told they did.

// Draft is a pending change to the content, as the fold of its events
// leaves it.
type Draft struct {
	// ID is the tmp- id of a create draft, the object id of any other
	// draft, or content.MetaPromptPath for the meta prompt.
	ID          string          `json:"id"`
	Resource    events.Resource `json:"resource"`
	Op          events.DraftOp  `json:"op"` // create, update, rename or delete
	Path        string          `json:"path,omitempty"`
	NewPath     string          `json:"newPath,omitempty"`
	Body        string          `json:"body,omitempty"`
	BaseHash    string          `json:"baseHash,omitempty"`
	Description string          `json:"description,omitempty"`
	SessionID   string          `json:"sessionId,omitempty"`
	Seq         uint64          `json:"seq"` // the last event that changed the draft
	// Status is where the draft is in its review (review.go); the review
	// fields below are set by the event that ended it.
	Status   DraftStatus `json:"status"`
	Reviewer string      `json:"reviewer,omitempty"`
	Reason   string      `json:"reason,omitempty"`   // declined and conflicted
	Revision uint64      `json:"revision,omitempty"` // the team catalog revision an accept wrote
	Diff     string      `json:"diff,omitempty"`     // conflicted: the draft against the current file
}

// Target is a published object as a draft decision sees it.
type Target struct {
	ID   string       `json:"id"`
	Kind content.Kind `json:"kind"`
	Path string       `json:"path"`
	Hash string       `json:"hash"`
	// FrontMatter is the published body's front matter block
	// (content.FrontMatter) when the query asked for it and the object is
	// a rule or workflow: an update whose body has none keeps it.
	FrontMatter string `json:"frontMatter,omitempty"`
}

// DraftQuery names the facts a command needs: the object and draft of ID,
// and who holds Path in Resource's namespace other than ID.
type DraftQuery struct {
	Resource events.Resource `json:"resource"`
	ID       string          `json:"id,omitempty"`
	Path     string          `json:"path,omitempty"`
	// FrontMatter asks for the published object's front matter (an
	// update's).
	FrontMatter bool `json:"frontMatter,omitempty"`
}

// DraftFacts is what a draft decision reads, all as of one state of the
// read models: Seq is the sequence of the newest event of the drafts
// aggregate that state includes, the expectation of the decided append.
type DraftFacts struct {
	Seq    uint64  `json:"seq"`
	Object *Target `json:"object,omitempty"` // published object with the query's id
	Draft  *Draft  `json:"draft,omitempty"`  // draft of the query's id
	Holder string  `json:"holder,omitempty"` // id holding the query's path, "" when free
}

// DraftCommand is one artifact operation, its paths already cleaned.
type DraftCommand struct {
	Session     string // the agent session that asks
	Resource    events.Resource
	Op          events.DraftOp
	ID          string // update, rename, delete, discard
	Path        string // create
	NewPath     string // rename
	Body        string // create, update
	Description string
}

// Query returns the facts c needs.
func (c DraftCommand) Query() DraftQuery {
	q := DraftQuery{Resource: c.Resource, ID: c.ID}
	switch c.Op {
	case events.DraftOpCreate:
		q.Path = c.Path
	case events.DraftOpRename:
		q.Path = c.NewPath
	case events.DraftOpUpdate:
		q.FrontMatter = true
	}
	return q
}

// DraftDecision is what an accepted command records and answers.
type DraftDecision struct {
	Type      events.Type      // the outcome: attest.draft.discard when a delete drops a create draft
	Data      events.DraftData // the draft as it stands after the event
	ID        string           // the id the draft is kept under
	DraftPath string           // the path the draft concerns
	Discarded bool             // a delete dropped a create draft
}

// DraftError is a command refused by the rules of the aggregate.
type DraftError struct {
	Code       events.Code
	Message    string
	Field      string // the argument at fault, for invalid_params
	ExistingID string // the id holding the path, for draft_exists
}

func (e *DraftError) Error() string { return string(e.Code) + ": " + e.Message }

func refuse(code events.Code, format string, args ...any) *DraftError {
	return &DraftError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// TmpID is the deterministic id of the create draft of path.
func TmpID(resource events.Resource, path string) string {
	sum := sha256.Sum256([]byte(string(resource) + ":" + path))
	return "tmp-" + string(resource) + "-" + hex.EncodeToString(sum[:])[:12]
}

// ResourceOf returns the resource that changes objects of kind k.
func ResourceOf(k content.Kind) events.Resource {
	switch k {
	case content.KindContext:
		return events.ResourceContext
	case content.KindMPF:
		return events.ResourceMPF
	}
	return events.ResourceRule
}

// NamespaceOfResource returns the namespace of a resource's paths.
func NamespaceOfResource(r events.Resource) content.Namespace {
	switch r {
	case events.ResourceContext:
		return content.NSContext
	case events.ResourceMPF:
		return content.NSMPF
	}
	return content.NSRule
}

// KindOf returns the content kind of a draft's target.
func (d *Draft) KindOf() content.Kind {
	switch d.Resource {
	case events.ResourceMPF:
		return content.KindMPF
	case events.ResourceContext:
		return content.KindContext
	}
	return content.KindOfRulePath(d.Path)
}

// DecideDraft decides command c on facts f: the event to record, or a
// *DraftError that says why the rules refuse it.
func DecideDraft(f DraftFacts, c DraftCommand) (DraftDecision, error) {
	switch c.Op {
	case events.DraftOpCreate:
		return decideCreate(f, c)
	case events.DraftOpUpdate:
		return decideUpdate(f, c)
	case events.DraftOpRename:
		return decideRename(f, c)
	case events.DraftOpDelete:
		return decideDelete(f, c)
	case events.DraftOpDiscard:
		return decideDiscard(f, c)
	}
	return DraftDecision{}, refuse(events.CodeInvalidParams, "unknown operation %q", c.Op)
}

func decideCreate(f DraftFacts, c DraftCommand) (DraftDecision, error) {
	if f.Holder != "" {
		return DraftDecision{}, &DraftError{Code: events.CodeDraftExists, ExistingID: f.Holder, Message: fmt.Sprintf(
			"draft already exists: %q is already held by %s; change it with update on that id, or pick another path", c.Path, f.Holder)}
	}
	id := TmpID(c.Resource, c.Path)
	return DraftDecision{
		Type: events.TypeDraftCreate, ID: id, DraftPath: c.Path,
		Data: events.DraftData{Resource: c.Resource, ID: id, Op: events.DraftOpCreate, Path: c.Path, Body: c.Body, Description: c.Description},
	}, nil
}

// target is what an update, rename, delete or discard acts on.
type target struct {
	id        string
	object    *Target
	draft     *Draft
	published string // the path it is published at, or the create draft's path
}

// resolve finds the target of an op by id: not_found when the id has
// neither a published object nor a draft, invalid_target_kind when it is
// of another resource.
func resolve(f DraftFacts, c DraftCommand) (target, error) {
	t := target{id: c.ID, object: f.Object, draft: f.Draft}
	switch {
	case t.object != nil:
		t.published = t.object.Path
	case t.draft != nil:
		t.published = t.draft.Path
	default:
		return t, notFound(c.Resource, c.ID)
	}
	got := events.Resource("")
	if t.object != nil {
		got = ResourceOf(t.object.Kind)
	} else {
		got = t.draft.Resource
	}
	if got != c.Resource {
		return t, refuse(events.CodeInvalidTargetKind, "%q is a %s id, not a %s one; call artifact with resource %q for it", c.ID, got, c.Resource, got)
	}
	return t, nil
}

// notFound is the error of an id that names nothing of resource.
func notFound(resource events.Resource, id string) *DraftError {
	return refuse(events.CodeNotFound, "file not found in cache: there is no %s with id %q; take ids from memdisc", resource, id)
}

// live fails not_found unless t has a published object or is a create
// draft: a draft left behind by an object that was removed since can only
// be discarded.
func (t target) live(resource events.Resource) error {
	if t.object == nil && t.draftOp() != events.DraftOpCreate {
		return notFound(resource, t.id)
	}
	return nil
}

// draftOp returns the op of t's draft, "" when it has none.
func (t target) draftOp() events.DraftOp {
	if t.draft == nil {
		return ""
	}
	return t.draft.Op
}

// changeable resolves the target of an update, rename or delete: it must
// be live, not in review, and not another session's draft.
func changeable(f DraftFacts, c DraftCommand) (target, error) {
	t, err := resolve(f, c)
	if err != nil {
		return t, err
	}
	if err := t.live(c.Resource); err != nil {
		return t, err
	}
	if t.draft != nil && t.draft.Status == StatusInReview {
		return t, t.incompatible(c.Op)
	}
	return t, t.foreign(c)
}

// foreign is the error of an op on a draft another session made, nil
// when the draft is the session's own (or has no session).
func (t target) foreign(c DraftCommand) error {
	if t.draft == nil || t.draft.Status == StatusInReview || t.draft.SessionID == "" || t.draft.SessionID == c.Session {
		return nil
	}
	return refuse(events.CodeIncompatibleDraft,
		"artifact already has an incompatible local change: %q has a %s draft of another agent session (%s), which %s would throw away; leave it for review, or discard it first if you mean to",
		t.id, t.draft.Op, t.draft.SessionID, c.Op)
}

// incompatible is the error of an op that the target's draft rules out.
func (t target) incompatible(op events.DraftOp) error {
	if t.draft.Status == StatusInReview {
		return refuse(events.CodeIncompatibleDraft, "artifact already has an incompatible local change: the draft of %q is submitted for review and cannot change until it is reviewed", t.id)
	}
	article := "a"
	if t.draft.Op == events.DraftOpUpdate {
		article = "an"
	}
	return refuse(events.CodeIncompatibleDraft,
		"artifact already has an incompatible local change: %q has %s %s draft, which %s would throw away; discard that draft first if you mean to",
		t.id, article, t.draft.Op, op)
}

func decideUpdate(f DraftFacts, c DraftCommand) (DraftDecision, error) {
	t, err := changeable(f, c)
	if err != nil {
		return DraftDecision{}, err
	}
	data := events.DraftData{Resource: c.Resource, ID: c.ID, Op: events.DraftOpUpdate, Path: t.published, Body: c.Body, Description: c.Description}
	switch {
	case t.draftOp() == events.DraftOpCreate:
		// The file is still new: it stays a create draft, with this body.
		data.Op = events.DraftOpCreate
	case t.draftOp() == events.DraftOpRename || t.draftOp() == events.DraftOpDelete:
		return DraftDecision{}, t.incompatible(events.DraftOpUpdate)
	default:
		data.BaseHash = t.object.Hash
		// memload serves a published rule without its front matter: a
		// body sent back from it keeps the rule's scope and checks. A
		// body with a front matter of its own replaces them.
		data.Body = content.KeepFrontMatter(t.object.FrontMatter, c.Body)
	}
	if data.Description == "" && t.draft != nil {
		data.Description = t.draft.Description
	}
	return DraftDecision{Type: events.TypeDraftUpdate, Data: data, ID: c.ID, DraftPath: t.published}, nil
}

func decideRename(f DraftFacts, c DraftCommand) (DraftDecision, error) {
	if c.Resource == events.ResourceMPF {
		return DraftDecision{}, refuse(events.CodeInvalidTargetKind,
			"the META_PROMPT cannot be renamed: its path is always %s", content.MetaPromptPath)
	}
	t, err := changeable(f, c)
	if err != nil {
		return DraftDecision{}, err
	}
	switch t.draftOp() {
	case "", events.DraftOpRename:
	case events.DraftOpCreate:
		return DraftDecision{}, refuse(events.CodeIncompatibleDraft,
			"artifact already has an incompatible local change: %q is a new file's draft, which cannot be renamed; discard it and create it again at %q", c.ID, c.NewPath)
	default:
		return DraftDecision{}, t.incompatible(events.DraftOpRename)
	}
	if c.NewPath == t.object.Path {
		e := refuse(events.CodeInvalidParams, "%q is already at %q; give a different new_path", c.ID, c.NewPath)
		e.Field = "op.rename.new_path"
		return DraftDecision{}, e
	}
	if f.Holder != "" {
		return DraftDecision{}, &DraftError{Code: events.CodeDraftExists, ExistingID: f.Holder, Message: fmt.Sprintf(
			"draft already exists: %q is already held by %s; pick another path", c.NewPath, f.Holder)}
	}
	return DraftDecision{Type: events.TypeDraftRename, ID: c.ID, DraftPath: c.NewPath, Data: events.DraftData{
		Resource: c.Resource, ID: c.ID, Op: events.DraftOpRename, Path: t.object.Path, NewPath: c.NewPath,
		BaseHash: t.object.Hash, Description: c.Description,
	}}, nil
}

func decideDelete(f DraftFacts, c DraftCommand) (DraftDecision, error) {
	t, err := changeable(f, c)
	if err != nil {
		return DraftDecision{}, err
	}
	switch t.draftOp() {
	case events.DraftOpCreate:
		// Deleting a file that exists only as a draft discards the draft,
		// and the event says so.
		return DraftDecision{Type: events.TypeDraftDiscard, ID: c.ID, DraftPath: t.draft.Path, Discarded: true,
			Data: events.DraftData{Resource: c.Resource, ID: c.ID, Path: t.draft.Path}}, nil
	case events.DraftOpUpdate, events.DraftOpRename:
		return DraftDecision{}, t.incompatible(events.DraftOpDelete)
	}
	return DraftDecision{Type: events.TypeDraftDelete, ID: c.ID, DraftPath: t.object.Path, Data: events.DraftData{
		Resource: c.Resource, ID: c.ID, Op: events.DraftOpDelete, Path: t.object.Path, BaseHash: t.object.Hash, Description: c.Description,
	}}, nil
}

func decideDiscard(f DraftFacts, c DraftCommand) (DraftDecision, error) {
	t, err := resolve(f, c)
	if err != nil {
		return DraftDecision{}, err
	}
	switch {
	case t.draft == nil:
		return DraftDecision{}, refuse(events.CodeNotFound, "file not found in cache: %q has no draft to discard", c.ID)
	case t.draft.Status == StatusInReview:
		return DraftDecision{}, t.incompatible(events.DraftOpDiscard)
	}
	return DraftDecision{Type: events.TypeDraftDiscard, ID: c.ID, DraftPath: t.draft.Path,
		Data: events.DraftData{Resource: c.Resource, ID: c.ID, Path: t.draft.Path}}, nil
}

// DraftKey returns the id of the draft that an event with this decoded
// payload changes, "" when it changes none.
func DraftKey(payload any) string {
	switch p := payload.(type) {
	case *events.DraftData:
		return p.ID
	case *events.ReviewData:
		return p.DraftID
	}
	return ""
}

// EvolveDraft folds one event into the open draft it changes (cur, nil
// when it has none) and returns the draft after it: nil when there is
// none, a draft with a final status (Status.Final) when a review ended it,
// which is then no longer open. It is deterministic and reads nothing but
// its arguments. Failed calls change nothing.
func EvolveDraft(cur *Draft, ev *events.Event, payload any) *Draft {
	if ev.Outcome != events.OutcomeOK {
		return cur
	}
	switch p := payload.(type) {
	case *events.DraftData:
		return evolveDraftData(cur, ev, p)
	case *events.ReviewData:
		return evolveReview(cur, ev, p)
	}
	return cur
}

func evolveDraftData(cur *Draft, ev *events.Event, d *events.DraftData) *Draft {
	if ev.Type == events.TypeDraftDiscard {
		return nil
	}
	op := d.Op
	if op == "" {
		// Written before events stated their outcome: derive it from the
		// operation the type records.
		op = ev.Type.DraftOp()
		fromCreate := cur != nil && cur.Op == events.DraftOpCreate
		switch {
		case op == "":
			return cur
		case op == events.DraftOpUpdate && fromCreate:
			next := *cur
			next.Body, next.SessionID, next.Seq, next.Status = d.Body, ev.SessionID, ev.Seq, StatusDraft
			if d.Description != "" {
				next.Description = d.Description
			}
			return &next
		case op == events.DraftOpDelete && fromCreate:
			return nil
		}
	}
	next := &Draft{
		ID: d.ID, Resource: d.Resource, Op: op, Path: d.Path, Description: d.Description,
		SessionID: ev.SessionID, Seq: ev.Seq, Status: StatusDraft,
	}
	switch op {
	case events.DraftOpCreate:
		next.Body = d.Body
	case events.DraftOpUpdate:
		next.Body, next.BaseHash = d.Body, d.BaseHash
	case events.DraftOpRename:
		next.NewPath, next.BaseHash = d.NewPath, d.BaseHash
	case events.DraftOpDelete:
		next.BaseHash = d.BaseHash
	}
	return next
}
