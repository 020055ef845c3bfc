package dash

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/dayrange"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/projections"
)

// Rule is the API's page of one rule, workflow or context: GET
// /api/rules/{id}.
type Rule struct {
	ID          string       `json:"id"`
	Kind        content.Kind `json:"kind"`
	Path        string       `json:"path"`
	Name        string       `json:"name"`
	Group       string       `json:"group,omitempty"`
	Description string       `json:"description,omitempty"`
	Hash        string       `json:"hash"`
	// Range is the range of days Refs, Days, Evidence and Effect count;
	// the constraints' refs and the applications are over all time.
	Range dayrange.Range `json:"range"`
	Refs  uint64         `json:"refs"`
	// Effect is how it did in the range.
	Effect Effect `json:"effect"`
	// Constraints are those of the published body, in its order, then
	// constraints referenced that it no longer has.
	Constraints []Constraint               `json:"constraints"`
	Days        []projections.Day          `json:"days"`         // refs per day
	Applied     []Application              `json:"applications"` // newest first, at most MaxApplications
	More        bool                       `json:"moreApplications"`
	Publishes   []projections.PublishEntry `json:"publishes"` // oldest first
	// Source is set for a rule the repository's catalog does not publish
	// (RuleRow.Source): removed, team or unknown. A removed rule's page is
	// its history: its last path, refs, applications and publishes.
	Source string `json:"source,omitempty"`
	// Paths are the globs of the files it applies to (front matter).
	Paths []string `json:"paths"`
	// Evidence is the sessions that edited files in its scope, loaded it
	// and claimed it, and the claims without evidence.
	Evidence projections.RuleEvidenceOf `json:"evidence"`
	// NotLoaded are the sessions of the range with an edit in its scope
	// that never loaded it, newest first, at most MaxNotLoaded;
	// MoreNotLoaded says some were left out.
	NotLoaded     []NotLoadedSession `json:"inScopeNotLoaded"`
	MoreNotLoaded bool               `json:"moreInScopeNotLoaded"`
	// Checks is what its checks found in the sessions of the range, held
	// against whether each had loaded it, per constraint and per version:
	// the rule's entry of `clumsies stats --json`'s checks for the range.
	Checks evidence.CheckTotals `json:"checks"`
}

// MaxApplications bounds the applications a rule's page lists.
const MaxApplications = 50

// Constraint is one constraint of a rule with its refs.
type Constraint struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	Text string `json:"text,omitempty"`
	Refs uint64 `json:"refs"`
	// Gone is set for a constraint that was referenced but the published
	// body no longer has.
	Gone bool `json:"gone,omitempty"`
}

// Application is a memref that referenced the rule, with the constraints
// it named and why.
type Application struct {
	Seq       uint64 `json:"seq"`
	Time      string `json:"time"`
	SessionID string `json:"sessionId"`
	// Who ran the session: its host and model.
	Who
	Refs []AppliedRef `json:"refs"`
}

// AppliedRef is one constraint of the rule a memref named.
type AppliedRef struct {
	ConstraintID string `json:"constraintId"`
	Reason       string `json:"reason,omitempty"`
}

func rule(ctx context.Context, src Source, evs Events, id string, rg dayrange.Range) (Rule, error) {
	o, source, err := ruleObject(ctx, src, id)
	if err != nil {
		return Rule{}, err
	}
	days := src.RuleDays(id)
	r := Rule{
		ID: o.ID, Kind: o.Kind, Path: o.Path, Name: o.Name, Group: o.Group, Description: o.Description, Range: rg,
		Hash: o.Hash, Constraints: []Constraint{}, Days: fillDays(days, rg, time.Now()), Applied: []Application{},
		Paths: o.Paths, Evidence: ruleEvidenceIn(src, id, rg), Source: source, Checks: ruleChecksIn(src, id, rg),
	}
	if r.Paths == nil {
		r.Paths = []string{}
	}
	u := src.UsageOf(id)
	r.Refs = u.Refs
	if !rg.All() {
		r.Refs = SumDays(days, rg).Refs
	}
	r.Effect = effect(r.Refs, r.Evidence.RuleTotals, days)
	if r.NotLoaded, r.MoreNotLoaded, err = notLoaded(src, id, rg); err != nil {
		return Rule{}, fmt.Errorf("read the sessions in the scope of %s: %w", id, err)
	}
	counted := make(map[string]uint64)
	for _, c := range u.Constraints {
		counted[c.ID] = c.Refs
	}
	known := make(map[string]bool)
	for _, c := range o.Constraints {
		known[c.ID] = true
		r.Constraints = append(r.Constraints, Constraint{ID: c.ID, Name: c.Name, Text: c.Text, Refs: counted[c.ID]})
	}
	for _, c := range u.Constraints {
		if !known[c.ID] {
			r.Constraints = append(r.Constraints, Constraint{ID: c.ID, Refs: c.Refs, Gone: true})
		}
	}
	apps, more, err := src.RuleApplications(ctx, id, MaxApplications)
	if err != nil {
		return Rule{}, err
	}
	r.More = more
	who := map[string]Who{}
	for _, seq := range apps {
		ev, err := evs.Get(ctx, seq)
		if err != nil {
			return Rule{}, fmt.Errorf("read the refs of %s: %w", id, err)
		}
		w, ok := who[ev.SessionID]
		if !ok {
			w = whoRan(src, ev.SessionID)
			who[ev.SessionID] = w
		}
		app := Application{Seq: seq, Time: ev.Time, SessionID: ev.SessionID, Who: w, Refs: []AppliedRef{}}
		var d events.ReferData
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return Rule{}, fmt.Errorf("decode the refs of event %d: %w", seq, err)
		}
		for _, ref := range d.Refs {
			if ref.RuleID == id {
				app.Refs = append(app.Refs, AppliedRef{ConstraintID: ref.ConstraintID, Reason: ref.Reason})
			}
		}
		r.Applied = append(r.Applied, app)
	}
	if r.Publishes, err = src.Publishes(ctx, id); err != nil {
		return Rule{}, err
	}
	if r.Publishes == nil {
		r.Publishes = []projections.PublishEntry{}
	}
	return r, nil
}

// ruleEvidenceIn is the evidence of rule id over the sessions first seen
// in rg.
func ruleEvidenceIn(src Source, id string, rg dayrange.Range) projections.RuleEvidenceOf {
	all := src.RuleEvidence(id)
	if rg.All() {
		return all
	}
	out := projections.RuleEvidenceOf{RuleTotals: projections.RuleTotals{ID: id}, Claims: []projections.UnsupportedClaim{}}
	for _, s := range EvidenceOf(src.Evidence(), SessionsIn(src.Sessions(), rg)) {
		for _, re := range s.Rules {
			if re.ID != id {
				continue
			}
			out.Add(re)
			if re.Unsupported > 0 {
				out.Claims = append(out.Claims, projections.UnsupportedClaim{SessionID: s.ID, Refs: re.Unsupported, Why: re.Why})
			}
		}
	}
	return out
}

// ruleObject returns the published object id, or, for a rule the catalog
// does not publish but the ledger has refs or publishes of, what is known
// of it and where it comes from (unlistedRule).
func ruleObject(ctx context.Context, src Source, id string) (projections.Object, string, error) {
	o, err := src.Object(id)
	if !errors.Is(err, projections.ErrNotFound) {
		return o, "", err
	}
	u, uerr := unlistedRule(ctx, src, id)
	if uerr != nil {
		return o, "", uerr
	}
	if u.Source == SourceUnknown && src.UsageOf(id).Refs == 0 {
		return o, "", err
	}
	return projections.Object{ID: id, Kind: u.Kind, Path: u.Path, Name: content.NameOf(u.Path), Group: content.GroupOf(u.Path)}, u.Source, nil
}
