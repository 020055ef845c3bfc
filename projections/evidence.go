package projections

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// SessionEvidence is what the host's hooks saw a session do, held against
// what its agent loaded and claimed: the files it touched
// (attest.file_edit), the rules in scope for them, whether the agent had
// loaded each before the edit, and the memref claims the ledger does not
// back.
type SessionEvidence struct {
	ID string `json:"id"`
	// Edits counts the session's attest.file_edit events.
	Edits uint64 `json:"edits"`
	// Paths are the workspace-relative files touched, sorted, at most
	// maxEvidencePaths of them.
	Paths []string `json:"paths"`
	// Rules are the rules in scope, loaded or referenced in the session,
	// sorted by id.
	Rules []RuleEvidence `json:"rules"`
	// Unsupported counts the refs claimed without evidence, over Rules.
	Unsupported uint64 `json:"unsupported"`
}

// RuleEvidence is one rule in one session.
type RuleEvidence struct {
	ID string `json:"id"`
	// InScope counts the session's edits with the rule in scope.
	InScope uint64 `json:"inScope"`
	// UnloadedEdits counts those edits made before the session loaded
	// the rule.
	UnloadedEdits uint64 `json:"unloadedEdits"`
	// Loaded is true once the session loaded the rule (memload).
	Loaded bool `json:"loaded"`
	// Refs counts the session's memref refs of the rule.
	Refs uint64 `json:"refs"`
	// Unsupported counts the refs claimed without evidence: made before
	// the session loaded the rule, or, for a rule with paths, in a session
	// whose edits the hooks recorded and none of which the rule was in
	// scope for.
	Unsupported uint64 `json:"unsupported"`
	// Why says why the refs are unsupported: "not loaded" or "no touched
	// file in scope".
	Why string `json:"why,omitempty"`
}

// Why an unsupported claim is unsupported.
const (
	WhyNotLoaded = "not loaded"
	WhyNoScope   = "no touched file in scope"
)

// maxEvidencePaths bounds the touched paths a session keeps.
const maxEvidencePaths = 1000

// prefixEvidence is the evidence key prefix: e/<sessionId> holds an
// evidenceRow.
const prefixEvidence = "e/"

func evidenceKey(id string) []byte { return []byte(prefixEvidence + id) }

// evidenceRow is a session's evidence as the model keeps it.
type evidenceRow struct {
	Edits uint64                      `json:"edits"`
	Paths []string                    `json:"paths,omitempty"`
	Rules map[string]*ruleEvidenceRow `json:"rules,omitempty"`
}

type ruleEvidenceRow struct {
	InScope       uint64 `json:"inScope,omitempty"`
	UnloadedEdits uint64 `json:"unloadedEdits,omitempty"`
	Loaded        bool   `json:"loaded,omitempty"`
	Refs          uint64 `json:"refs,omitempty"`
	// UnloadedRefs counts the refs made before the rule was loaded.
	UnloadedRefs uint64 `json:"unloadedRefs,omitempty"`
}

// evidenceModel is the read model of evidence: an evidenceRow per session
// with a file edit, a load or a ref.
type evidenceModel struct {
	byID    map[string]*evidenceRow
	touched map[string]struct{}
}

func newEvidenceModel() *evidenceModel {
	return &evidenceModel{byID: make(map[string]*evidenceRow), touched: make(map[string]struct{})}
}

func (m *evidenceModel) prefix() string { return prefixEvidence }

func (m *evidenceModel) row(id string) *evidenceRow {
	r := m.byID[id]
	if r == nil {
		r = &evidenceRow{Rules: map[string]*ruleEvidenceRow{}}
		m.byID[id] = r
	}
	m.touched[id] = struct{}{}
	return r
}

func (r *evidenceRow) rule(id string) *ruleEvidenceRow {
	re := r.Rules[id]
	if re == nil {
		re = new(ruleEvidenceRow)
		r.Rules[id] = re
	}
	return re
}

// apply folds file edits, successful loads and refs of a session.
func (m *evidenceModel) apply(d decoded) {
	ev := d.ev
	if ev.SessionID == "" || ev.Outcome != events.OutcomeOK {
		return
	}
	switch p := d.payload.(type) {
	case *events.FileEditData:
		r := m.row(ev.SessionID)
		r.Edits++
		for _, path := range p.Paths {
			if i, found := slices.BinarySearch(r.Paths, path); !found && len(r.Paths) < maxEvidencePaths {
				r.Paths = slices.Insert(r.Paths, i, path)
			}
		}
		for _, id := range p.Rules {
			re := r.rule(id)
			re.InScope++
			if !re.Loaded {
				re.UnloadedEdits++
			}
		}
	case *events.LoadData:
		r := m.row(ev.SessionID)
		for _, it := range p.Items {
			r.rule(it.ID).Loaded = true
		}
	case refs:
		r := m.row(ev.SessionID)
		for _, rc := range p {
			re := r.rule(rc.rule)
			re.Refs++
			if !re.Loaded {
				re.UnloadedRefs++
			}
		}
	}
}

func (m *evidenceModel) write(w *rowWriter) {
	for id := range m.touched {
		w.json(evidenceKey(id), m.byID[id])
	}
	clear(m.touched)
}

func (m *evidenceModel) load(k string, v []byte) error {
	r := new(evidenceRow)
	if err := json.Unmarshal(v, r); err != nil {
		return err
	}
	if r.Rules == nil {
		r.Rules = map[string]*ruleEvidenceRow{}
	}
	m.byID[k[len(prefixEvidence):]] = r
	return nil
}

// evidence returns the API form of a session's row. c says what the
// catalog knows of a rule: a load of an id it does not know as a rule or
// workflow (META_PROMPT, context) is left out.
func (r *evidenceRow) evidence(id string, c ruleFacts) SessionEvidence {
	out := SessionEvidence{ID: id, Edits: r.Edits, Paths: slices.Clone(r.Paths), Rules: []RuleEvidence{}}
	if out.Paths == nil {
		out.Paths = []string{}
	}
	for _, rid := range slices.Sorted(maps.Keys(r.Rules)) {
		re := r.Rules[rid]
		if re.InScope == 0 && re.Refs == 0 && !c.isRule(rid) {
			continue
		}
		e := RuleEvidence{ID: rid, InScope: re.InScope, UnloadedEdits: re.UnloadedEdits, Loaded: re.Loaded, Refs: re.Refs}
		switch {
		case r.Edits > 0 && re.InScope == 0 && re.Refs > 0 && c.scoped(rid):
			e.Unsupported, e.Why = re.Refs, WhyNoScope
		case re.UnloadedRefs > 0:
			e.Unsupported, e.Why = re.UnloadedRefs, WhyNotLoaded
		}
		out.Unsupported += e.Unsupported
		out.Rules = append(out.Rules, e)
	}
	return out
}

// Evidence returns the evidence of every session with a file edit, or a
// rule it loaded or referenced, sorted by id.
func (s *Store) Evidence() []SessionEvidence {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]SessionEvidence, 0, len(s.st.evidence.byID))
	for id, r := range s.st.evidence.byID {
		if e := r.evidence(id, s.st.manifest); e.Edits > 0 || len(e.Rules) > 0 {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b SessionEvidence) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// SessionEvidence returns the evidence of one session, or ErrNotFound.
func (s *Store) SessionEvidence(id string) (SessionEvidence, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if r, ok := s.st.evidence.byID[id]; ok {
		return r.evidence(id, s.st.manifest), nil
	}
	return SessionEvidence{}, ErrNotFound
}

// ruleFacts is what evidence needs to know of the catalog's rules.
type ruleFacts interface {
	// isRule reports whether id is a published rule or workflow.
	isRule(id string) bool
	// scoped reports whether the published rule id declares the paths
	// it applies to.
	scoped(id string) bool
}

func (m *manifestModel) isRule(id string) bool {
	o := m.objects[id]
	return o != nil && (o.Kind() == content.KindRule || o.Kind() == content.KindWorkflow)
}

func (m *manifestModel) scoped(id string) bool {
	o := m.objects[id]
	return o != nil && o.field(fieldScope) != ""
}

// RuleTotals is one rule's evidence over sessions.
type RuleTotals struct {
	ID string `json:"id"`
	// InScope counts the sessions with an edit in the rule's scope;
	// UnloadedEdits the edits in its scope made before the session had
	// loaded it.
	InScope       int    `json:"inScope"`
	UnloadedEdits uint64 `json:"unloadedEdits"`
	// Loaded and Referenced count the sessions that loaded it and that
	// claimed it (memref).
	Loaded     int `json:"loaded"`
	Referenced int `json:"referenced"`
	// Unsupported counts the refs claimed without evidence.
	Unsupported uint64 `json:"unsupported"`
}

func (t *RuleTotals) add(r RuleEvidence) {
	t.InScope += count(r.InScope > 0)
	t.UnloadedEdits += r.UnloadedEdits
	t.Loaded += count(r.Loaded)
	t.Referenced += count(r.Refs > 0)
	t.Unsupported += r.Unsupported
}

func count(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Totals sums ss per rule, sorted by rule id.
func Totals(ss []SessionEvidence) []RuleTotals {
	byID := map[string]*RuleTotals{}
	for _, s := range ss {
		for _, r := range s.Rules {
			t := byID[r.ID]
			if t == nil {
				t = &RuleTotals{ID: r.ID}
				byID[r.ID] = t
			}
			t.add(r)
		}
	}
	out := make([]RuleTotals, 0, len(byID))
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		out = append(out, *byID[id])
	}
	return out
}

// RuleEvidenceOf is one rule's evidence: its totals over every session
// and the sessions that claimed it without evidence.
type RuleEvidenceOf struct {
	RuleTotals
	Claims []UnsupportedClaim `json:"unsupportedClaims"`
}

// UnsupportedClaim is a session's refs of a rule claimed without
// evidence, and why.
type UnsupportedClaim struct {
	SessionID string `json:"sessionId"`
	Refs      uint64 `json:"refs"`
	Why       string `json:"why"`
}

// RuleEvidence returns the evidence of rule id over every session.
func (s *Store) RuleEvidence(id string) RuleEvidenceOf {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := RuleEvidenceOf{RuleTotals: RuleTotals{ID: id}, Claims: []UnsupportedClaim{}}
	for sid, r := range s.st.evidence.byID {
		if r.Rules[id] == nil {
			continue
		}
		for _, re := range r.evidence(sid, s.st.manifest).Rules {
			if re.ID != id {
				continue
			}
			out.add(re)
			if re.Unsupported > 0 {
				out.Claims = append(out.Claims, UnsupportedClaim{SessionID: sid, Refs: re.Unsupported, Why: re.Why})
			}
		}
	}
	slices.SortFunc(out.Claims, func(a, b UnsupportedClaim) int { return cmp.Compare(a.SessionID, b.SessionID) })
	return out
}
