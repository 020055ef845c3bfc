package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// artifact stages a change to a rule, a context file or the META_PROMPT as a
// draft. Drafts live only in the ledger (attest.draft.* events carry the
// whole draft) and in the projections. What an operation does is decided
// by catalog.DecideDraft on the facts the read models hold; the event is
// appended on the condition that no event of the drafts aggregate landed
// since those facts (see the handler), so two agents in two processes
// cannot both take one path.

var (
	resources = events.Resources()
	ops       = events.DraftOps()
)

const descBody = "The whole new content of the file, as Markdown. Not empty; at most 256 KiB."

func (s *Server) artifactTool() *tool {
	desc := func(d string) prop {
		return optional("description", str("Optional: "+d+" Shown to the reviewer."))
	}
	return &tool{
		name:   "artifact",
		title:  "Stage a draft",
		access: additive,
		typ:    events.TypeArtifactError,
		desc: "Stage a change to a rule, a context file or the META_PROMPT as a local draft for review. " +
			"Use it only when the task is to refine them; never write draft files yourself. " +
			"op holds exactly one operation: create, update, rename, delete or discard. " +
			"Drafts show at once in memdisc (hasDraft, tmp- ids) and memload (draft content). " +
			"A draft belongs to the session that staged it: another session's draft can be discarded, not changed.",
		input: object("",
			required("resource", enum("What to change: context (a context file), rule (a rule or workflow; workflow paths start with workflow/), or mpf (META_PROMPT.md).", names(resources)...)),
			required("op", exactlyOne("The operation: an object with exactly one key.",
				optional(string(events.DraftOpCreate), object("Create a new file as a draft. Returns its temporary id (tmp-...), usable with memload, update, delete and discard.",
					required("path", nonEmpty(`Path of the new file relative to its folder, for example "go/errors.md"; ".md" is added when missing. No leading "/", no "." or ".." segments, no hidden names. For mpf, "META_PROMPT.md".`)),
					required("body", nonEmpty(descBody)),
					desc("what the new file is for."),
				)),
				optional(string(events.DraftOpUpdate), object("Replace the content of an existing file (or of your create draft) with a new body. "+
					"A published rule keeps its front matter (paths, checks) when the body has none, as memload serves it; a body that starts with its own --- front matter replaces it.",
					required("id", nonEmpty(`The id from memdisc (p-..., c-..., tmp-...), or "META_PROMPT.md" for resource mpf.`)),
					required("body", nonEmpty(descBody)),
					desc("what the change does and why."),
				)),
				optional(string(events.DraftOpRename), object("Move an existing rule or context file to a new path. Not available for mpf.",
					required("id", nonEmpty("The id from memdisc (p-... or c-...).")),
					required("new_path", nonEmpty(`The new path, with the same rules as create's path.`)),
					desc("why it moves."),
				)),
				optional(string(events.DraftOpDelete), object("Propose deleting an existing file. On your own create draft (its tmp- id) it discards that draft instead.",
					required("id", nonEmpty(`The id from memdisc (p-..., c-... or tmp-...), or "META_PROMPT.md" for resource mpf. Paths are not accepted.`)),
					desc("why it should go."),
				)),
				optional(string(events.DraftOpDiscard), object("Throw away the unsubmitted draft of an id, whatever its kind.",
					required("id", nonEmpty(`The id whose draft to drop (p-..., c-..., tmp-... or "META_PROMPT.md").`)),
				)),
			)),
		),
		output: output("The staged draft.",
			required("ok", boolean("True when the draft was recorded.")),
			required("id", str("The id the draft is kept under: the tmp- id of a new file, else the target's id.")),
			required("op", enum("The operation that was applied.", names(ops)...)),
			optional("draft_path", str("The path the draft concerns (the new path for create and rename).")),
			optional("discarded", boolean("True when delete on a create draft discarded that draft.")),
		),
		run: s.artifact,
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
	OK        bool           `json:"ok"`
	ID        string         `json:"id"`
	Op        events.DraftOp `json:"op"`
	DraftPath string         `json:"draft_path,omitempty"`
	Discarded bool           `json:"discarded,omitempty"`
}

// artifactArgs are artifact's arguments once decoded: Resource and Op are
// always valid, and the fields of Op are set.
type artifactArgs struct {
	Resource    events.Resource
	Op          events.DraftOp
	ID          string // update, rename, delete, discard
	Path        string // create, as given
	NewPath     string // rename, as given
	Body        string // create, update
	Description string
}

// opFields lists the properties of each op, required ones first.
var opFields = map[events.DraftOp]struct{ required, optional []string }{
	events.DraftOpCreate:  {[]string{"path", "body"}, []string{"description"}},
	events.DraftOpUpdate:  {[]string{"id", "body"}, []string{"description"}},
	events.DraftOpRename:  {[]string{"id", "new_path"}, []string{"description"}},
	events.DraftOpDelete:  {[]string{"id"}, []string{"description"}},
	events.DraftOpDiscard: {[]string{"id"}, nil},
}

// decodeArtifact reads artifact's arguments strictly.
func decodeArtifact(raw json.RawMessage) (artifactArgs, error) {
	var a artifactArgs
	f, err := decodeObject(raw, "", "resource", "op")
	if err != nil {
		return a, err
	}
	resource, err := f.str("resource", true, true, 0)
	if err != nil {
		return a, err
	}
	a.Resource = events.Resource(resource)
	if !slices.Contains(resources, a.Resource) {
		return a, invalidParams("resource", "resource must be one of %s, got %q", strings.Join(names(resources), ", "), a.Resource)
	}
	op, err := f.object("op", names(ops)...)
	if err != nil {
		return a, err
	}
	if len(op.m) != 1 {
		return a, invalidParams("op", "op must hold exactly one of %s; it holds %d", strings.Join(names(ops), ", "), len(op.m))
	}
	for name := range op.m {
		a.Op = events.DraftOp(name)
	}
	spec := opFields[a.Op]
	args, err := op.object(string(a.Op), append(slices.Clone(spec.required), spec.optional...)...)
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
			// memload's refer-reminder footer is the server's, not the
			// file's: a body copied from memload brings it along.
			body, footer := content.StripReferFooter(v)
			if footer && strings.TrimSpace(body) == "" {
				return a, invalidParams("op."+string(a.Op)+".body", "op.%s.body holds only clumsies' refer-reminder footer (the lines memload appends after ---); send the file's own content", a.Op)
			}
			a.Body = body
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
func peekOp(raw json.RawMessage) events.DraftOp {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return ""
	}
	var op map[string]json.RawMessage
	if json.Unmarshal(top["op"], &op) != nil || len(op) != 1 {
		return ""
	}
	for name := range op {
		if slices.Contains(ops, events.DraftOp(name)) {
			return events.DraftOp(name)
		}
	}
	return ""
}

// names returns the values of a string type as strings.
func names[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

func (s *Server) artifact(ctx context.Context, c *call) (any, entry, error) {
	e := entry{typ: events.TypeArtifactError}
	if t := peekOp(c.raw).EventType(); t != "" {
		e.typ = t
	}
	if err := requireSession(c); err != nil {
		return nil, e, err
	}
	if s.cfg.ReadOnly {
		return nil, e, toolErr(events.CodeReadOnly, "this clumsies server is read-only: drafts cannot be staged here. Tell the user the change you would make instead.")
	}
	a, err := decodeArtifact(c.raw)
	if err != nil {
		return nil, e, err
	}
	e.typ = a.Op.EventType()
	cmd, err := command(c.session, a)
	if err != nil {
		return nil, e, err
	}
	d, seq, err := s.decideDraft(ctx, cmd)
	if err != nil {
		return nil, e, err
	}
	e.typ, e.payload = d.Type, d.Data
	e.expect = &events.Expectation{Aggregate: events.AggregateDrafts, LastSeq: seq}
	return artifactResult{OK: true, ID: d.ID, Op: a.Op, DraftPath: d.DraftPath, Discarded: d.Discarded}, e, nil
}

// cleanPath checks a path an agent proposed for resource.
func cleanPath(resource events.Resource, field, p string) (string, error) {
	clean, err := content.CleanPath(p)
	if err != nil {
		return "", toolErr(events.CodeUnsafePath, "%s: %s", field, strings.TrimPrefix(err.Error(), "content: ")).with("field", field)
	}
	switch {
	case resource == events.ResourceMPF && clean != content.MetaPromptPath:
		return "", toolErr(events.CodeUnsafePath, "%s: the META_PROMPT's path is always %s", field, content.MetaPromptPath).with("field", field)
	case resource != events.ResourceMPF && content.IsMetaPrompt(clean):
		return "", toolErr(events.CodeUnsafePath, "%s: %q is reserved for the META_PROMPT; use resource mpf to change it", field, p).with("field", field)
	}
	return clean, nil
}

// command turns decoded arguments into the aggregate's command, cleaning
// its paths (unsafe_path). A rename of the META_PROMPT is left to the
// decision, which refuses it whatever the path.
func command(session string, a artifactArgs) (catalog.DraftCommand, error) {
	c := catalog.DraftCommand{Session: session, Resource: a.Resource, Op: a.Op, ID: a.ID, Body: a.Body, Description: a.Description}
	var err error
	switch {
	case a.Op == events.DraftOpCreate:
		c.Path, err = cleanPath(a.Resource, "op.create.path", a.Path)
	case a.Op == events.DraftOpRename && a.Resource != events.ResourceMPF:
		c.NewPath, err = cleanPath(a.Resource, "op.rename.new_path", a.NewPath)
	}
	return c, err
}

// decideDraft reads the facts the command needs and decides it.
func (s *Server) decideDraft(ctx context.Context, c catalog.DraftCommand) (catalog.DraftDecision, uint64, error) {
	f, err := s.cfg.Catalog.DraftFacts(ctx, c.Query())
	if err != nil {
		return catalog.DraftDecision{}, 0, fmt.Errorf("read the drafts of %s: %w", c.Resource, err)
	}
	d, err := catalog.DecideDraft(f, c)
	var de *catalog.DraftError
	if errors.As(err, &de) {
		te := toolErr(de.Code, "%s", de.Message)
		if de.Field != "" {
			te.with("field", de.Field)
		}
		if de.ExistingID != "" {
			te.with("existingId", de.ExistingID)
		}
		return d, f.Seq, te
	}
	return d, f.Seq, err
}
