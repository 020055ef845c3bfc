package projections

import (
	"cmp"
	"encoding/json"
	"slices"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/projections/engine"
)

// SessionEvidence is what the host's hooks saw a session do, held against
// what its agent loaded and claimed (package evidence defines it, for the
// hub's figures too).
type SessionEvidence = evidence.Session

// RuleEvidence is one rule in one session.
type RuleEvidence = evidence.Rule

// Why an unsupported claim is unsupported.
const (
	WhyNotLoaded = evidence.WhyNotLoaded
	WhyNoScope   = evidence.WhyNoScope
)

// NoEvidenceOnHost is what a session whose host records no file edits
// says of its claims (SessionEvidence.NoHostEvidence).
const NoEvidenceOnHost = evidence.NoEvidenceOnHost

// GateFigures is what the gates recorded of a session, or summed over
// sessions; RuleGateFigures of one rule (package evidence).
type (
	GateFigures     = evidence.Gate
	RuleGateFigures = evidence.RuleGate
)

// prefixEvidence is the evidence key prefix: e/<sessionId> holds an
// evidence.Row.
const prefixEvidence = "e/"

func evidenceKey(id string) []byte { return []byte(prefixEvidence + id) }

// evidenceModel is the read model of evidence: an evidenceRow per session
// with a file edit, a load, a ref, a gate's event or a session start, and
// the hosts that recorded file edits (derived from the rows).
type evidenceModel struct {
	byID    map[string]*evidence.Row
	hosts   evidence.Hosts
	touched map[string]struct{}
}

func newEvidenceModel() *evidenceModel {
	return &evidenceModel{byID: make(map[string]*evidence.Row), hosts: evidence.Hosts{}, touched: make(map[string]struct{})}
}

func (m *evidenceModel) Prefixes() []string { return []string{prefixEvidence} }

// Folds implements folder.
func (m *evidenceModel) Folds() []events.Type {
	return []events.Type{events.TypeCatalogReid, events.TypeFileEdit, events.TypeToolGated, events.TypeStopBlocked,
		events.TypeCheck, events.TypeSessionStart, events.TypeSetup, events.TypeLoad, events.TypeRefer}
}

func (m *evidenceModel) row(id string) *evidence.Row {
	r := m.byID[id]
	if r == nil {
		r = new(evidence.Row)
		m.byID[id] = r
	}
	m.touched[id] = struct{}{}
	return r
}

// apply folds file edits, successful loads (the versions that delivered
// a published body, events.LoadedItem.Delivered: the one record of the
// session's loads, which the gate reads too) and refs of a session, the
// gates' events (attest.tool_gated, attest.stop_blocked) and the host a
// session start names; catalog.reid moves what every session did under the old id
// to the new one (evidence.Row.Reid), as usage moves its counts.
func (m *evidenceModel) Apply(d decoded) {
	if r, ok := d.payload.(*events.ReidData); ok {
		m.reid(r.From, r.To)
		return
	}
	ev := d.ev
	if ev.SessionID == "" || ev.Outcome != events.OutcomeOK {
		return
	}
	switch p := d.payload.(type) {
	case *events.FileEditData:
		r := m.row(ev.SessionID)
		r.FileEdit(p, nil)
		m.hosts.Add(r)
	case *events.ToolGatedData:
		m.row(ev.SessionID).ToolGated(p, nil)
	case *events.StopBlockedData:
		m.row(ev.SessionID).StopBlocked(p, nil)
	case *events.CheckData:
		m.row(ev.SessionID).Check(p, nil)
	case *events.SessionStartData:
		m.row(ev.SessionID).SawStart(p)
	case *events.SetupData:
		m.row(ev.SessionID).SawSetup(p)
	case *events.LoadData:
		m.row(ev.SessionID).Load(p, nil)
	case refs:
		r := m.row(ev.SessionID)
		for _, rc := range p {
			r.Ref(rc.rule)
		}
	}
}

// reid moves rule from to rule to in the row of every session that
// named from.
func (m *evidenceModel) reid(from, to string) {
	for id, r := range m.byID {
		if r.Reid(from, to) {
			m.touched[id] = struct{}{}
		}
	}
}

func (m *evidenceModel) Write(w *engine.RowWriter) {
	for id := range m.touched {
		w.JSON(evidenceKey(id), m.byID[id])
	}
	clear(m.touched)
}

func (m *evidenceModel) Load(k string, v []byte) error {
	r := new(evidence.Row)
	if err := json.Unmarshal(v, r); err != nil {
		return err
	}
	m.byID[k[len(prefixEvidence):]] = r
	m.hosts.Add(r)
	return nil
}

// Evidence returns the evidence of every session with a file edit, a
// rule it loaded or referenced, or a figure of the gates, sorted by id.
func (s *Store) Evidence() []SessionEvidence {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]SessionEvidence, 0, len(s.st.evidence.byID))
	for id, r := range s.st.evidence.byID {
		if e := r.Session(id, s.st.manifest, s.st.evidence.hosts); e.Any() {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b SessionEvidence) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// SessionEvidence returns the evidence of one session, or ErrNotFound
// when it has none to show (SessionEvidence.Any).
func (s *Store) SessionEvidence(id string) (SessionEvidence, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if r, ok := s.st.evidence.byID[id]; ok {
		if e := r.Session(id, s.st.manifest, s.st.evidence.hosts); e.Any() {
			return e, nil
		}
	}
	return SessionEvidence{}, ErrNotFound
}

// The manifest tells evidence what it knows of the catalog's rules.
var _ evidence.Facts = (*manifestModel)(nil)

// IsRule reports whether id is a published rule or workflow.
func (m *manifestModel) IsRule(id string) bool {
	o := m.objects[id]
	return o != nil && (o.Kind() == content.KindRule || o.Kind() == content.KindWorkflow)
}

// Scoped reports whether the published rule id declares the paths it
// applies to.
func (m *manifestModel) Scoped(id string) bool {
	o := m.objects[id]
	return o != nil && o.field(fieldScope) != ""
}

// RuleTotals is one rule's evidence over sessions.
type RuleTotals = evidence.RuleTotals

// Totals sums ss per rule, sorted by rule id.
func Totals(ss []SessionEvidence) []RuleTotals { return evidence.Totals(ss) }

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
		if !r.Names(id) {
			continue
		}
		for _, re := range r.Session(sid, s.st.manifest, s.st.evidence.hosts).Rules {
			if re.ID != id {
				continue
			}
			out.Add(re)
			if re.Unsupported > 0 {
				out.Claims = append(out.Claims, UnsupportedClaim{SessionID: sid, Refs: re.Unsupported, Why: re.Why})
			}
		}
	}
	slices.SortFunc(out.Claims, func(a, b UnsupportedClaim) int { return cmp.Compare(a.SessionID, b.SessionID) })
	return out
}
