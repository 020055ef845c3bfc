package mcp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// memref records which constraints of loaded rules and workflows the agent
// applied. Every ref is checked against the content memload serves (the
// rules in force, a create draft under its tmp- id: inForce);
// one bad ref fails the whole call, naming the first one by its index, and
// nothing is recorded but the failure.

func (s *Server) referTool() *tool {
	return &tool{
		name:   "memref",
		title:  "Declare the constraints you applied",
		access: additive,
		typ:    events.TypeRefer,
		desc: "Declare the constraints you applied this turn, all in ONE call at the end of the turn. " +
			"Each ref names a rule or workflow (ruleId) and one of its constraints (constraintId), both copied exactly from memload. " +
			"Context files cannot be referred to.",
		input: object("",
			required("refs", array("The constraints you applied; at least one.", object("One applied constraint.",
				required("ruleId", nonEmpty("The id of a rule or workflow, exactly as memload returned it (p-... or tmp-...). Not a context id.")),
				required("constraintId", nonEmpty("Copy exactly one constraints[].id that memload returned for this rule (for example \"Steps/2\"). Never invent or shorten an id.")),
				optional("ruleHash", str("The rule's hash from memload, so a stale copy is detected. Omit it, or pass \"\", when you do not have it.")),
				optional("reason", str("Optional: one sentence on how this constraint shaped your work.")),
			), 1)),
		),
		output: output("The accepted refs.",
			required("ok", boolean("True when every ref was recorded.")),
			required("count", integer("How many refs were recorded.")),
		),
		run: s.refer,
	}
}

type referResult struct {
	OK    bool `json:"ok"`
	Count int  `json:"count"`
}

// validConstraint is one entry of unknown_constraint's validConstraints.
type validConstraint struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Text string `json:"text"`
}

type ref struct {
	ruleID, constraintID, ruleHash, reason string
}

func (s *Server) refer(ctx context.Context, c *call) (any, entry, error) {
	e := entry{typ: events.TypeRefer}
	if err := requireSession(c); err != nil {
		return nil, e, err
	}
	refs, err := decodeRefs(c.raw)
	if err != nil {
		return nil, e, err
	}
	views := map[string]projections.Item{}
	data := events.ReferData{Refs: make([]events.Ref, 0, len(refs))}
	for i, r := range refs {
		it, ok := views[r.ruleID]
		if !ok {
			var err error
			it, err = s.cfg.Catalog.View(ctx, r.ruleID)
			switch {
			case errors.Is(err, projections.ErrNotFound):
				return nil, e, toolErr(events.CodeUnknownRuleOrWorkflow,
					"refs[%d]: ruleId %q is not a rule or workflow of this workspace; call memdisc and memload again and copy the ids they return", i, r.ruleID).
					with("index", i)
			case err != nil:
				return nil, e, fmt.Errorf("view %s: %w", r.ruleID, err)
			}
			if unborn(it) {
				return nil, e, toolErr(events.CodeUnknownRuleOrWorkflow,
					"refs[%d]: %q is a new file whose draft was %s, not a rule or workflow of this workspace; leave it out", i, r.ruleID, it.DraftStatus).
					with("index", i)
			}
			it = inForce(it) // the version memload serves
			views[r.ruleID] = it
		}
		if !referable(it.Kind) {
			return nil, e, toolErr(events.CodeInvalidTargetKind,
				"refs[%d]: %q is %s, not a rule or workflow; only rules and workflows can be referred to, so leave it out", i, r.ruleID, kindPhrase(it.Kind)).
				with("index", i)
		}
		if h := content.NormalizeHash(r.ruleHash); h != "" && h != it.Hash {
			return nil, e, toolErr(events.CodeStaleRuleHash,
				"refs[%d]: ruleHash of %q is out of date; memload it again and refer to its current constraints", i, r.ruleID).
				with("index", i).with("currentHash", it.Hash)
		}
		con, ok := findConstraint(it.Constraints, r.constraintID)
		if !ok {
			valid := make([]validConstraint, len(it.Constraints))
			ids := make([]string, len(it.Constraints))
			for j, c := range it.Constraints {
				valid[j] = validConstraint{ID: c.ID, Name: c.Name, Text: c.Text}
				ids[j] = strconv.Quote(c.ID)
			}
			hint := "it has no constraints, so leave it out"
			if len(ids) > 0 {
				hint = "retry with one of: " + strings.Join(ids, ", ")
			}
			return nil, e, toolErr(events.CodeUnknownConstraint,
				"refs[%d]: constraintId %q is not a constraint of %q; %s", i, r.constraintID, r.ruleID, hint).
				with("index", i).with("validConstraints", valid)
		}
		data.Refs = append(data.Refs, events.Ref{
			RuleID: r.ruleID, RuleHash: it.Hash, ConstraintID: con.ID,
			Name: con.Name, TextHash: con.TextHash, Reason: r.reason, Revision: it.Revision,
		})
	}
	e.payload = data
	return referResult{OK: true, Count: len(data.Refs)}, e, nil
}

// decodeRefs reads memref's arguments.
func decodeRefs(raw []byte) ([]ref, error) {
	f, err := decodeObject(raw, "", "refs")
	if err != nil {
		return nil, err
	}
	items, err := f.array("refs")
	if err != nil {
		return nil, err
	}
	refs := make([]ref, len(items))
	for i, item := range items {
		path := fmt.Sprintf("refs[%d]", i)
		if !isJSONObject(item) {
			return nil, invalidParams(path, "%s must be an object, got %s", path, jsonType(item))
		}
		rf, err := decodeObject(item, path, "ruleId", "constraintId", "ruleHash", "reason")
		if err != nil {
			return nil, err
		}
		r := &refs[i]
		if r.ruleID, err = rf.str("ruleId", true, true, 0); err != nil {
			return nil, err
		}
		if r.constraintID, err = rf.str("constraintId", true, true, 0); err != nil {
			return nil, err
		}
		if r.ruleHash, err = rf.str("ruleHash", false, false, 0); err != nil {
			return nil, err
		}
		if r.reason, err = rf.str("reason", false, false, maxText); err != nil {
			return nil, err
		}
	}
	return refs, nil
}

func findConstraint(cs []content.Constraint, id string) (content.Constraint, bool) {
	for _, c := range cs {
		if c.ID == id {
			return c, true
		}
	}
	return content.Constraint{}, false
}

// kindPhrase names a kind for messages.
func kindPhrase(k content.Kind) string {
	switch k {
	case content.KindContext:
		return "a context file"
	case content.KindMPF:
		return "the META_PROMPT"
	}
	return "a " + string(k)
}
