package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// msgUnknownRuleID is memload's answer for an id it does not know. Its
// text is the wire contract's ("Unknown rule id: <id>"), capital and all,
// so it is the one message that does not start in lower case; a hint may
// follow it.
const msgUnknownRuleID = "Unknown rule id: %s"

// memload returns the content of the ids an agent asks for, the rules in
// force (a draft is served only under its tmp- id: inForce), with delta
// loading: content is null when the agent's known hash is
// current. Rules and workflows always come with their constraints, and
// their content ends with the refer footer (footer.go).

func (s *Server) loadTool() *tool {
	return &tool{
		name:   "memload",
		title:  "Load rules, workflows and context",
		access: readOnly,
		typ:    events.TypeLoad,
		desc: "Load the content of rules, workflows and context files by id (ids come from memdisc). " +
			"Rules and workflows come with their constraints: the parts you can declare with memref. " +
			"A rule's front matter (paths, checks) comes as the fields paths and checks, not in content. " +
			"Content is null when the hash you already know is current.",
		input: object("",
			required("ids", array("The ids to load, from memdisc (p-..., c-... or tmp-...).", nonEmpty("An id from memdisc."), 1)),
			required("knownHashes", stringMap(
				`A hash for EVERY id in ids, keyed by id: the hash you got for it earlier, or "" when you do not know it. `+
					`An id missing here fails the call; pass "" rather than leaving it out.`,
				`The hash you remember for this id, or "" when you do not know it.`)),
		),
		output: output("The loaded items.",
			required("workspaceId", str("The workspace id.")),
			required("items", array("One item per requested id, in request order.", openObject("",
				required("id", str("The id you asked for.")),
				required("kind", enum("", string(content.KindRule), string(content.KindWorkflow), string(content.KindContext))),
				required("path", str("Path in the workspace.")),
				required("changed", boolean("False when your known hash is current; then content is null.")),
				required("hash", str("The current hash; pass it as ruleHash to memref and as knownHashes next time.")),
				required("hasDraft", boolean("Whether this content is a draft's: true only for a tmp- id, a new file not yet accepted. Other ids give the published content, whatever drafts are open.")),
				optional("draftStatus", enum("When the last draft of this id was declined or conflicted; for a tmp- id the content is that draft's, which was not published.",
					string(catalog.StatusDeclined), string(catalog.StatusConflicted))),
				optional("draftReason", str("Why the last draft was declined or conflicted.")),
				required("content", nullableStr("The content; null when unchanged.")),
				optional("constraints", array("Rules and workflows only: what you can declare with memref. Copy id exactly as constraintId.",
					openObject("",
						required("id", str("The constraintId to pass to memref, exactly as written.")),
						required("name", str("The section title.")),
						required("text", str("What the constraint says.")),
						required("textHash", str("Hash of text.")),
					), 0)),
				optional("paths", array("Rules and workflows whose front matter names paths only: the globs of the files the rule is for. "+
					"The front matter itself is not in content; an update with artifact keeps it unless its body brings its own.", str(""), 0)),
				optional("checks", array("Rules and workflows that declare checks only: how the hooks check a change against a constraint. "+
					"A forbid pattern must not appear, a require pattern must appear, in the lines a change adds to a file in scope; "+
					"a run command gets the changed files. A finding names the constraint.",
					openObject("",
						required("constraint", str("The id of the constraint the check stands for.")),
						required("kind", enum("", "forbid", "require", "run")),
						optional("pattern", str("The RE2 pattern (Go regexp, multi-line mode), for forbid and require.")),
						optional("run", str("The command, for run.")),
						optional("message", str("What a finding says.")),
						optional("paths", array("Globs that narrow the check within the rule's paths.", str(""), 0)),
					), 0)),
			), 0)),
		),
		run: s.load,
	}
}

type loadResult struct {
	WorkspaceID string     `json:"workspaceId"`
	Items       []loadItem `json:"items"`
}

type loadItem struct {
	ID          string               `json:"id"`
	Kind        content.Kind         `json:"kind"`
	Path        string               `json:"path"`
	Changed     bool                 `json:"changed"`
	Hash        string               `json:"hash"`
	HasDraft    bool                 `json:"hasDraft"`
	DraftStatus string               `json:"draftStatus,omitempty"`
	DraftReason string               `json:"draftReason,omitempty"`
	Content     *string              `json:"content"`
	Constraints []content.Constraint `json:"constraints,omitzero"`
	// Checks are the checks the rule's front matter declares, each naming
	// its constraint.
	Checks []loadCheck `json:"checks,omitempty"`
	// Paths are the globs of the rule's front matter: the files it is
	// for.
	Paths []string `json:"paths,omitempty"`
	// Source is "repo" or "team"; Revision is a team object's revision.
	// ShadowedBy names the team object that hides a repository object at
	// the same path.
	Source     string `json:"source"`
	Revision   uint64 `json:"revision,omitempty"`
	ShadowedBy string `json:"shadowedBy,omitempty"`
}

func (s *Server) load(ctx context.Context, c *call) (any, entry, error) {
	e := entry{typ: events.TypeLoad}
	if err := requireSession(c); err != nil {
		return nil, e, err
	}
	f, err := decodeObject(c.raw, "", "ids", "knownHashes")
	if err != nil {
		return nil, e, err
	}
	rawIDs, err := f.array("ids")
	if err != nil {
		return nil, e, err
	}
	ids := make([]string, 0, len(rawIDs))
	seen := map[string]bool{}
	for i, raw := range rawIDs {
		var id string
		if !isJSONString(raw) || json.Unmarshal(raw, &id) != nil {
			return nil, e, invalidParams(fmt.Sprintf("ids[%d]", i), "ids[%d] must be a string, got %s", i, jsonType(raw))
		}
		if id == "" {
			return nil, e, invalidParams(fmt.Sprintf("ids[%d]", i), "ids[%d] must not be empty", i)
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	known, err := f.stringMap("knownHashes")
	if err != nil {
		return nil, e, err
	}
	for _, id := range ids {
		if _, ok := known[id]; !ok {
			return nil, e, invalidParams(fmt.Sprintf("knownHashes[%q]", id),
				`knownHashes has no entry for %q: include every requested id, with "" when you do not know its hash`, id)
		}
	}
	res := loadResult{WorkspaceID: s.cfg.WorkspaceID, Items: make([]loadItem, 0, len(ids))}
	var data events.LoadData
	for _, id := range ids {
		it, err := s.cfg.Catalog.View(ctx, id)
		switch {
		case id == content.MetaPromptPath:
			return nil, e, toolErr(events.CodeUnknownRule, msgUnknownRuleID+"; the META_PROMPT comes with memsetup", id)
		case errors.Is(err, projections.ErrNotFound) || err == nil && !loadable(it.Kind):
			return nil, e, toolErr(events.CodeUnknownRule, msgUnknownRuleID+"; take ids from memdisc", id)
		case err != nil:
			return nil, e, fmt.Errorf("view %s: %w", id, err)
		}
		it = inForce(it)
		item := loadItem{
			ID: id, Kind: it.Kind, Path: it.Path, Hash: it.Hash,
			Changed:  content.NormalizeHash(known[id]) != it.Hash,
			HasDraft: it.HasDraft,
			Source:   sourceOf(it), Revision: it.Revision, ShadowedBy: it.ShadowedBy,
		}
		if st := it.DraftStatus; st == catalog.StatusDeclined || st == catalog.StatusConflicted {
			item.DraftStatus, item.DraftReason = string(st), it.DraftReason
		}
		if referable(it.Kind) && !unborn(it) {
			item.Constraints = it.Constraints
			if item.Constraints == nil {
				item.Constraints = []content.Constraint{}
			}
			item.Checks = checksOf(it)
			item.Paths = it.Paths
		}
		if item.Changed {
			body := it.Body
			if referable(it.Kind) && !unborn(it) {
				body = withFooter(served(it), id, it.Hash, it.Constraints)
			}
			item.Content = &body
		}
		res.Items = append(res.Items, item)
		data.Items = append(data.Items, loaded(id, it, item.Changed))
	}
	e.payload = data
	return res, e, nil
}

// inForce returns what memload serves of it, read with View: the object
// as published when it has an open update or rename draft. A draft is
// not a rule of the workspace until it is accepted, so no session gets it
// in place of the rule in force, not even its author (who holds the body
// it staged, and whose gate asks for the rule in force). The tmp- id of a
// create draft is served its draft: there is nothing else to serve.
func inForce(it projections.Item) projections.Item {
	if it.InForce != nil {
		return *it.InForce
	}
	return it
}

// served returns the body memload sends of a rule or workflow: a
// published one without its front matter, whose paths and checks the
// item gives as fields (artifact's update puts the block back: catalog's
// decideUpdate); a create draft's whole, for there is no published block
// to keep.
func served(it projections.Item) string {
	if !it.Published {
		return it.Body
	}
	return content.StripFrontMatter(it.Body)
}

// loaded returns the event's record of it served under id: the hash
// served, whether the content was sent, whether it was a draft's, and
// the hash of the constraints of a rule or workflow.
func loaded(id string, it projections.Item, changed bool) events.LoadedItem {
	li := events.LoadedItem{ID: id, Hash: it.Hash, Changed: changed, Draft: !it.Published}
	if referable(it.Kind) && !unborn(it) {
		li.ConstraintsHash = projections.VersionOf(it).Constraints
	}
	return li
}

// unborn reports whether it is a new file whose draft was declined or
// conflicted: it is shown with the reason, but is no rule to apply or
// refer to.
func unborn(it projections.Item) bool {
	return !it.Published && !it.HasDraft && it.DraftStatus.Final()
}

// loadable reports whether memload serves items of kind k.
func loadable(k content.Kind) bool { return referable(k) || k == content.KindContext }

// referable reports whether items of kind k have constraints memref can
// refer to.
func referable(k content.Kind) bool { return k == content.KindRule || k == content.KindWorkflow }

// loadCheck is a check as memload shows it.
type loadCheck struct {
	Constraint string   `json:"constraint"`
	Kind       string   `json:"kind"`
	Pattern    string   `json:"pattern,omitempty"`
	Run        string   `json:"run,omitempty"`
	Message    string   `json:"message,omitempty"`
	Paths      []string `json:"paths,omitempty"`
}

// checksOf are the checks of the body it serves; none when the body
// declares none, or declares some a publish would refuse (a team object
// the hub took before checks were read).
func checksOf(it projections.Item) []loadCheck {
	cs, err := content.ParseChecks(content.NameOf(it.Path), it.Body)
	if err != nil {
		return nil
	}
	var out []loadCheck
	for _, c := range cs {
		out = append(out, loadCheck{Constraint: c.Constraint, Kind: c.Kind(), Pattern: c.Pattern(), Run: c.Run, Message: c.Message, Paths: c.Paths})
	}
	return out
}
