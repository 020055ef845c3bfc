package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// artifact stages a change to a rule, a context file or the META_PROMPT as a
// draft. Drafts live only in the ledger (attest.draft.* events carry the
// whole draft) and in the projections; this file checks a change against the
// current drafts and published objects and records it.
//
// One id has at most one draft. What an op does to the draft already there:
//
//	existing draft | create       | update          | rename          | delete           | discard
//	---------------+--------------+-----------------+-----------------+------------------+--------
//	none           | new draft    | new draft       | new draft       | new draft        | not_found
//	create (tmp-)  | draft_exists | replaces body   | incompatible    | discards it      | discards it
//	update         | -            | replaces body   | incompatible    | incompatible     | discards it
//	rename         | -            | incompatible    | replaces target | incompatible     | discards it
//	delete         | -            | incompatible    | incompatible    | no change        | discards it
//	submitted      | -            | incompatible    | incompatible    | incompatible     | incompatible
//
// (incompatible = incompatible_draft.) A change never silently throws away
// another kind of change: an agent that wants to, discards first. A
// submitted draft is in review and is left alone. create fails draft_exists
// when a published object, a create draft or a renamed object holds the path
// in the same namespace (rules and workflows share one, context has its
// own), and rename fails the same way for its new path. An id of the wrong
// resource (a rule id with resource context) fails invalid_target_kind, as
// does rename with resource mpf: the META_PROMPT's path is fixed. The
// META_PROMPT can be created only when the workspace has none.

// Resources an artifact call can change.
const (
	resourceContext = "context"
	resourceRule    = "rule"
	resourceMPF     = "mpf"
)

// Artifact operations.
const (
	opCreate  = "create"
	opUpdate  = "update"
	opRename  = "rename"
	opDelete  = "delete"
	opDiscard = "discard"
)

var (
	resources = []string{resourceContext, resourceRule, resourceMPF}
	ops       = []string{opCreate, opUpdate, opRename, opDelete, opDiscard}
)

// opTypes maps each op to the event type of its calls.
var opTypes = map[string]events.Type{
	opCreate:  events.TypeDraftCreate,
	opUpdate:  events.TypeDraftUpdate,
	opRename:  events.TypeDraftRename,
	opDelete:  events.TypeDraftDelete,
	opDiscard: events.TypeDraftDiscard,
}

const descBody = "The whole new content of the file, as Markdown. Not empty; at most 256 KiB."

func (s *Server) artifactTool() *tool {
	desc := func(d string) prop {
		return optional("description", str("Optional: "+d+" Shown to the reviewer."))
	}
	return &tool{
		name: "artifact",
		typ:  events.TypeArtifactError,
		desc: "Stage a change to a rule, a context file or the META_PROMPT as a local draft for review. " +
			"Use it only when the task is to refine them; never write draft files yourself. " +
			"op holds exactly one operation: create, update, rename, delete or discard. " +
			"Drafts show at once in memdisc (hasDraft, tmp- ids) and memload (draft content).",
		input: object("",
			required("resource", enum("What to change: context (a context file), rule (a rule or workflow; workflow paths start with workflow/), or mpf (META_PROMPT.md).", resources...)),
			required("op", exactlyOne("The operation: an object with exactly one key.",
				optional(opCreate, object("Create a new file as a draft. Returns its temporary id (tmp-...), usable with memload, update, delete and discard.",
					required("path", nonEmpty(`Path of the new file relative to its folder, for example "go/errors.md"; ".md" is added when missing. No leading "/", no "." or ".." segments, no hidden names. For mpf, "META_PROMPT.md".`)),
					required("body", nonEmpty(descBody)),
					desc("what the new file is for."),
				)),
				optional(opUpdate, object("Replace the content of an existing file (or of your create draft) with a new body.",
					required("id", nonEmpty(`The id from memdisc (p-..., c-..., tmp-...), or "META_PROMPT.md" for resource mpf.`)),
					required("body", nonEmpty(descBody)),
					desc("what the change does and why."),
				)),
				optional(opRename, object("Move an existing rule or context file to a new path. Not available for mpf.",
					required("id", nonEmpty("The id from memdisc (p-... or c-...).")),
					required("new_path", nonEmpty(`The new path, with the same rules as create's path.`)),
					desc("why it moves."),
				)),
				optional(opDelete, object("Propose deleting an existing file. On your own create draft (its tmp- id) it discards that draft instead.",
					required("id", nonEmpty(`The id from memdisc (p-..., c-... or tmp-...), or "META_PROMPT.md" for resource mpf. Paths are not accepted.`)),
					desc("why it should go."),
				)),
				optional(opDiscard, object("Throw away the unsubmitted draft of an id, whatever its kind.",
					required("id", nonEmpty(`The id whose draft to drop (p-..., c-..., tmp-... or "META_PROMPT.md").`)),
				)),
			)),
		),
		output: output("The staged draft.",
			optional("ok", boolean("True when the draft was recorded.")),
			optional("id", str("The id the draft is kept under: the tmp- id of a new file, else the target's id.")),
			optional("op", enum("The operation that was applied.", ops...)),
			optional("draft_path", str("The path the draft concerns (the new path for create and rename).")),
			optional("discarded", boolean("True when delete on a create draft discarded that draft.")),
		),
		run:    s.artifact,
		serial: true,
	}
}

// exactlyOne is an object schema that holds exactly one of its (optional)
// properties.
func exactlyOne(desc string, props ...prop) *schema {
	s := object(desc, props...)
	one := 1
	s.MinProperties, s.MaxProperties = &one, &one
	return s
}

type artifactResult struct {
	OK        bool   `json:"ok"`
	ID        string `json:"id"`
	Op        string `json:"op"`
	DraftPath string `json:"draft_path,omitempty"`
	Discarded bool   `json:"discarded,omitempty"`
}

// artifactArgs are artifact's arguments once decoded: Resource and Op are
// always valid, and the fields of Op are set.
type artifactArgs struct {
	Resource    string
	Op          string
	ID          string // update, rename, delete, discard
	Path        string // create, as given
	NewPath     string // rename, as given
	Body        string // create, update
	Description string
}

// opFields lists the properties of each op, required ones first.
var opFields = map[string]struct{ required, optional []string }{
	opCreate:  {[]string{"path", "body"}, []string{"description"}},
	opUpdate:  {[]string{"id", "body"}, []string{"description"}},
	opRename:  {[]string{"id", "new_path"}, []string{"description"}},
	opDelete:  {[]string{"id"}, []string{"description"}},
	opDiscard: {[]string{"id"}, nil},
}

// decodeArtifact reads artifact's arguments strictly.
func decodeArtifact(raw json.RawMessage) (artifactArgs, error) {
	var a artifactArgs
	f, err := decodeObject(raw, "", "resource", "op")
	if err != nil {
		return a, err
	}
	if a.Resource, err = f.str("resource", true, true, 0); err != nil {
		return a, err
	}
	if !slices.Contains(resources, a.Resource) {
		return a, invalidParams("resource", "resource must be one of %s, got %q", strings.Join(resources, ", "), a.Resource)
	}
	op, err := f.object("op", ops...)
	if err != nil {
		return a, err
	}
	if len(op.m) != 1 {
		return a, invalidParams("op", "op must hold exactly one of %s; it holds %d", strings.Join(ops, ", "), len(op.m))
	}
	for name := range op.m {
		a.Op = name
	}
	spec := opFields[a.Op]
	args, err := op.object(a.Op, append(slices.Clone(spec.required), spec.optional...)...)
	if err != nil {
		return a, err
	}
	for _, name := range spec.required {
		max := 0
		if name == "body" {
			max = MaxBody
		}
		v, err := args.str(name, true, true, max)
		if err != nil {
			return a, err
		}
		switch name {
		case "id":
			a.ID = v
		case "path":
			a.Path = v
		case "new_path":
			a.NewPath = v
		case "body":
			a.Body = v
		}
	}
	if len(spec.optional) > 0 {
		if a.Description, err = args.str("description", false, false, maxText); err != nil {
			return a, err
		}
	}
	return a, nil
}

// peekOp returns the op of artifact arguments that may not decode, or ""
// when it cannot be told: it picks the event type of a failed call.
func peekOp(raw json.RawMessage) string {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return ""
	}
	var op map[string]json.RawMessage
	if json.Unmarshal(top["op"], &op) != nil || len(op) != 1 {
		return ""
	}
	for name := range op {
		if slices.Contains(ops, name) {
			return name
		}
	}
	return ""
}

func (s *Server) artifact(_ context.Context, c *call) (any, entry, error) {
	e := entry{typ: events.TypeArtifactError}
	if t, ok := opTypes[peekOp(c.raw)]; ok {
		e.typ = t
	}
	if err := requireSession(c); err != nil {
		return nil, e, err
	}
	if s.cfg.ReadOnly {
		return nil, e, toolErr(CodeReadOnly, "this clumsies server is read-only: drafts cannot be staged here. Tell the user the change you would make instead.")
	}
	a, err := decodeArtifact(c.raw)
	if err != nil {
		return nil, e, err
	}
	e.typ = opTypes[a.Op]
	var (
		res  artifactResult
		data events.DraftData
	)
	switch a.Op {
	case opCreate:
		res, data, err = s.create(a)
	case opUpdate:
		res, data, err = s.update(a)
	case opRename:
		res, data, err = s.rename(a)
	case opDelete:
		res, data, err = s.delete(a)
	case opDiscard:
		res, data, err = s.discard(a)
	}
	if err != nil {
		return nil, e, err
	}
	res.OK, res.Op = true, a.Op
	e.payload = data
	return res, e, nil
}

// tmpID is the deterministic id of a create draft.
func tmpID(resource, path string) string {
	sum := sha256.Sum256([]byte(resource + ":" + path))
	return "tmp-" + resource + "-" + hex.EncodeToString(sum[:])[:12]
}

// cleanPath checks a path an agent proposed for resource.
func cleanPath(resource, field, p string) (string, error) {
	clean, err := content.CleanPath(p)
	if err != nil {
		return "", toolErr(CodeUnsafePath, "%s: %s", field, strings.TrimPrefix(err.Error(), "content: ")).with("field", field)
	}
	switch {
	case resource == resourceMPF && clean != content.MetaPromptPath:
		return "", toolErr(CodeUnsafePath, "%s: the META_PROMPT's path is always %s", field, content.MetaPromptPath).with("field", field)
	case resource != resourceMPF && content.IsMetaPrompt(clean):
		return "", toolErr(CodeUnsafePath, "%s: %q is reserved for the META_PROMPT; use resource mpf to change it", field, p).with("field", field)
	}
	return clean, nil
}

// namespace returns the namespace of resource's paths.
func namespace(resource string) projections.Namespace {
	switch resource {
	case resourceContext:
		return projections.NSContext
	case resourceMPF:
		return projections.NSMPF
	}
	return projections.NSRule
}

// resourceOf returns the resource that changes items of kind k.
func resourceOf(k content.Kind) string {
	switch k {
	case content.KindContext:
		return resourceContext
	case content.KindMPF:
		return resourceMPF
	}
	return resourceRule
}

// pathHolder returns the id of what holds path in resource's namespace
// (a published object, a create draft, a renamed object), other than self.
func (s *Server) pathHolder(resource, path, self string) (string, bool) {
	if id, ok := s.cfg.Catalog.ObjectIDByPath(namespace(resource), path); ok && id != self {
		return id, true
	}
	if id := tmpID(resource, path); id != self {
		if _, err := s.cfg.Catalog.Draft(id); err == nil {
			return id, true
		}
	}
	if resource == resourceMPF {
		return "", false
	}
	for _, it := range s.cfg.Catalog.List(projections.Filter{}) {
		if it.Path == path && it.ID != self && resourceOf(it.Kind) == resource {
			return it.ID, true
		}
	}
	return "", false
}

func (s *Server) create(a artifactArgs) (artifactResult, events.DraftData, error) {
	path, err := cleanPath(a.Resource, "op.create.path", a.Path)
	if err != nil {
		return artifactResult{}, events.DraftData{}, err
	}
	if holder, ok := s.pathHolder(a.Resource, path, ""); ok {
		return artifactResult{}, events.DraftData{}, toolErr(CodeDraftExists,
			"draft already exists: %q is already held by %s; change it with update on that id, or pick another path", path, holder).
			with("existingId", holder)
	}
	id := tmpID(a.Resource, path)
	return artifactResult{ID: id, DraftPath: path},
		events.DraftData{Resource: a.Resource, ID: id, Path: path, Body: a.Body, Description: a.Description}, nil
}

// target is what an update, rename, delete or discard acts on.
type target struct {
	id        string
	object    *projections.Object // the published object, if any
	draft     *projections.Draft  // its draft, if any
	published string              // the path it is published at, or the create draft's path
}

// resolve finds the target of an op by id: not_found when the id has
// neither a published object nor a draft, invalid_target_kind when it is
// of another resource.
func (s *Server) resolve(resource, id string) (target, error) {
	t := target{id: id}
	o, err := s.cfg.Catalog.Object(id)
	switch {
	case err == nil:
		t.object, t.published = &o, o.Path
	case !errors.Is(err, projections.ErrNotFound):
		return t, fmt.Errorf("read object %s: %w", id, err)
	}
	d, err := s.cfg.Catalog.Draft(id)
	switch {
	case err == nil:
		t.draft = &d
		if t.object == nil {
			t.published = d.Path
		}
	case !errors.Is(err, projections.ErrNotFound):
		return t, fmt.Errorf("read draft %s: %w", id, err)
	}
	if t.object == nil && t.draft == nil {
		return t, notFound(resource, id)
	}
	got := ""
	if t.object != nil {
		got = resourceOf(t.object.Kind)
	} else {
		got = t.draft.Resource
	}
	if got != resource {
		return t, toolErr(CodeInvalidTargetKind, "%q is a %s id, not a %s one; call artifact with resource %q for it", id, got, resource, got)
	}
	return t, nil
}

// notFound is the error of an id that names nothing of resource.
func notFound(resource, id string) error {
	return toolErr(CodeNotFound, "file not found in cache: there is no %s with id %q; take ids from memdisc", resource, id)
}

// live fails not_found unless t has a published object or is a create
// draft: a draft left behind by an object that was removed since can only
// be discarded.
func (t target) live(resource string) error {
	if t.object == nil && t.draftOp() != opCreate {
		return notFound(resource, t.id)
	}
	return nil
}

// draftOp returns the op of t's draft, "" when it has none.
func (t target) draftOp() string {
	if t.draft == nil {
		return ""
	}
	return t.draft.Op
}

// incompatible is the error of an op that the target's draft rules out.
func (t target) incompatible(op string) error {
	if t.draft.Submitted {
		return toolErr(CodeIncompatibleDraft, "artifact already has an incompatible local change: the draft of %q is submitted for review and cannot change until it is reviewed", t.id)
	}
	article := "a"
	if t.draft.Op == opUpdate {
		article = "an"
	}
	return toolErr(CodeIncompatibleDraft,
		"artifact already has an incompatible local change: %q has %s %s draft, which %s would throw away; discard that draft first if you mean to",
		t.id, article, t.draft.Op, op)
}

func (s *Server) update(a artifactArgs) (artifactResult, events.DraftData, error) {
	t, err := s.resolve(a.Resource, a.ID)
	if err != nil {
		return artifactResult{}, events.DraftData{}, err
	}
	if err := t.live(a.Resource); err != nil {
		return artifactResult{}, events.DraftData{}, err
	}
	data := events.DraftData{Resource: a.Resource, ID: a.ID, Path: t.published, Body: a.Body, Description: a.Description}
	switch {
	case t.draft != nil && t.draft.Submitted:
		return artifactResult{}, events.DraftData{}, t.incompatible(opUpdate)
	case t.draftOp() == opCreate:
		if data.Description == "" {
			data.Description = t.draft.Description
		}
	case t.draftOp() == opRename || t.draftOp() == opDelete:
		return artifactResult{}, events.DraftData{}, t.incompatible(opUpdate)
	default:
		data.BaseHash = t.object.Hash
		if data.Description == "" && t.draft != nil {
			data.Description = t.draft.Description
		}
	}
	return artifactResult{ID: a.ID, DraftPath: t.published}, data, nil
}

func (s *Server) rename(a artifactArgs) (artifactResult, events.DraftData, error) {
	if a.Resource == resourceMPF {
		return artifactResult{}, events.DraftData{}, toolErr(CodeInvalidTargetKind,
			"the META_PROMPT cannot be renamed: its path is always %s", content.MetaPromptPath)
	}
	newPath, err := cleanPath(a.Resource, "op.rename.new_path", a.NewPath)
	if err != nil {
		return artifactResult{}, events.DraftData{}, err
	}
	t, err := s.resolve(a.Resource, a.ID)
	if err != nil {
		return artifactResult{}, events.DraftData{}, err
	}
	if err := t.live(a.Resource); err != nil {
		return artifactResult{}, events.DraftData{}, err
	}
	switch t.draftOp() {
	case "", opRename:
		if t.draft != nil && t.draft.Submitted {
			return artifactResult{}, events.DraftData{}, t.incompatible(opRename)
		}
	case opCreate:
		return artifactResult{}, events.DraftData{}, toolErr(CodeIncompatibleDraft,
			"artifact already has an incompatible local change: %q is a new file's draft, which cannot be renamed; discard it and create it again at %q", a.ID, newPath)
	default:
		return artifactResult{}, events.DraftData{}, t.incompatible(opRename)
	}
	if newPath == t.object.Path {
		return artifactResult{}, events.DraftData{}, invalidParams("op.rename.new_path", "%q is already at %q; give a different new_path", a.ID, newPath)
	}
	if holder, ok := s.pathHolder(a.Resource, newPath, a.ID); ok {
		return artifactResult{}, events.DraftData{}, toolErr(CodeDraftExists,
			"draft already exists: %q is already held by %s; pick another path", newPath, holder).with("existingId", holder)
	}
	return artifactResult{ID: a.ID, DraftPath: newPath}, events.DraftData{
		Resource: a.Resource, ID: a.ID, Path: t.object.Path, NewPath: newPath,
		BaseHash: t.object.Hash, Description: a.Description,
	}, nil
}

func (s *Server) delete(a artifactArgs) (artifactResult, events.DraftData, error) {
	t, err := s.resolve(a.Resource, a.ID)
	if err != nil {
		return artifactResult{}, events.DraftData{}, err
	}
	if err := t.live(a.Resource); err != nil {
		return artifactResult{}, events.DraftData{}, err
	}
	if t.draft != nil && t.draft.Submitted {
		return artifactResult{}, events.DraftData{}, t.incompatible(opDelete)
	}
	switch t.draftOp() {
	case opCreate:
		// Deleting a file that exists only as a draft discards the draft.
		return artifactResult{ID: a.ID, DraftPath: t.draft.Path, Discarded: true},
			events.DraftData{Resource: a.Resource, ID: a.ID, Path: t.draft.Path}, nil
	case opUpdate, opRename:
		return artifactResult{}, events.DraftData{}, t.incompatible(opDelete)
	}
	return artifactResult{ID: a.ID, DraftPath: t.object.Path}, events.DraftData{
		Resource: a.Resource, ID: a.ID, Path: t.object.Path, BaseHash: t.object.Hash, Description: a.Description,
	}, nil
}

func (s *Server) discard(a artifactArgs) (artifactResult, events.DraftData, error) {
	t, err := s.resolve(a.Resource, a.ID)
	if err != nil {
		return artifactResult{}, events.DraftData{}, err
	}
	switch {
	case t.draft == nil:
		return artifactResult{}, events.DraftData{}, toolErr(CodeNotFound, "file not found in cache: %q has no draft to discard", a.ID)
	case t.draft.Submitted:
		return artifactResult{}, events.DraftData{}, t.incompatible(opDiscard)
	}
	return artifactResult{ID: a.ID, DraftPath: t.draft.Path}, events.DraftData{Resource: a.Resource, ID: a.ID, Path: t.draft.Path}, nil
}
