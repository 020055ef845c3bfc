package projections

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// Compliance is what the ledger says of one session's discipline: whether
// a host hook announced it, whether the agent set up with the announced
// id, whether each prompt got a report, and how often the stop hook had
// to hold the agent back. It is the read model of `clumsies stats`'
// compliance figures and of the stop hook's decision.
type Compliance struct {
	ID string `json:"id"`
	// Host is the host of the session's first attest.session_start;
	// Model the first model a session start named.
	Host  string `json:"host,omitempty"`
	Model string `json:"model,omitempty"`
	// HookStarts counts attest.session_start events: the session was
	// announced by a hook.
	HookStarts uint64 `json:"hookStarts"`
	// Setups counts successful memsetup calls with this session id.
	Setups uint64 `json:"setups"`
	// InventedID is set when memsetup bound this id before any hook had
	// announced it, in a workspace whose hooks announce sessions: the
	// agent used an id its host never gave it.
	InventedID bool `json:"inventedId"`
	// Prompts counts attest.user_prompt events.
	Prompts uint64 `json:"prompts"`
	// Answered counts prompts that an agentreport or agentrejected
	// followed before the next prompt.
	Answered uint64 `json:"answered"`
	// Refs counts the refs of successful memref calls.
	Refs uint64 `json:"refs"`
	// StopsBlocked counts attest.stop_blocked events.
	StopsBlocked uint64 `json:"stopsBlocked"`
	// Pending is true while the last prompt has no report or rejection
	// after it: the stop hook blocks a stop then.
	Pending bool `json:"pending"`
	// BlocksInRow counts the stops blocked since the last prompt, report
	// or rejection.
	BlocksInRow uint64 `json:"blocksInRow"`
	// Rejected is true when the turn since the last prompt was closed
	// with agentrejected and a reason: the stop lets the findings of the
	// rules' checks stand against it.
	Rejected bool `json:"rejected"`
}

// Compliant reports whether the session did what the adapters ask: a hook
// announced it, the agent set up with that id, and every prompt got a
// report or a rejection.
func (c Compliance) Compliant() bool {
	return c.HookStarts > 0 && c.Setups > 0 && !c.InventedID && c.Answered == c.Prompts
}

// prefixCompliance is the compliance key prefix: a/<sessionId> holds a
// complianceRow.
const prefixCompliance = "a/"

func complianceKey(id string) []byte { return []byte(prefixCompliance + id) }

// complianceRow is the compliance of a session as the model keeps it, in
// memory and on disk: its own type, so that the API type can change
// without changing the layout.
type complianceRow struct {
	ID           string `json:"id"`
	Host         string `json:"host,omitempty"`
	Model        string `json:"model,omitempty"`
	HookStarts   uint64 `json:"hookStarts"`
	Setups       uint64 `json:"setups"`
	InventedID   bool   `json:"inventedId"`
	Prompts      uint64 `json:"prompts"`
	Answered     uint64 `json:"answered"`
	Refs         uint64 `json:"refs"`
	StopsBlocked uint64 `json:"stopsBlocked"`
	Pending      bool   `json:"pending"`
	BlocksInRow  uint64 `json:"blocksInRow"`
	Rejected     bool   `json:"rejected,omitempty"`
}

func (r *complianceRow) compliance() Compliance {
	return Compliance{
		ID: r.ID, Host: r.Host, Model: r.Model, HookStarts: r.HookStarts, Setups: r.Setups, InventedID: r.InventedID,
		Prompts: r.Prompts, Answered: r.Answered, Refs: r.Refs, StopsBlocked: r.StopsBlocked,
		Pending: r.Pending, BlocksInRow: r.BlocksInRow, Rejected: r.Rejected,
	}
}

// complianceModel is the read model of compliance: a complianceRow per
// session, and whether any hook ever announced a session in this
// workspace.
type complianceModel struct {
	byID    map[string]*complianceRow
	hooked  bool
	touched map[string]struct{} // session ids, since the last write
}

func newComplianceModel() *complianceModel {
	return &complianceModel{byID: make(map[string]*complianceRow), touched: make(map[string]struct{})}
}

func (m *complianceModel) Prefixes() []string { return []string{prefixCompliance} }

// Folds implements folder.
func (m *complianceModel) Folds() []events.Type {
	return []events.Type{events.TypeCatalogReid, events.TypeSessionStart, events.TypeReject, events.TypeRefer, events.TypeLoad}
}

// apply changes the model for one event. Only successful tool calls
// count; hook events always do. What a session loaded is not kept here
// but in its evidence row (evidence.Loads), which the gate reads: a load
// only makes the session's row.
func (m *complianceModel) Apply(d decoded) {
	ev := d.ev
	if ev.SessionID == "" {
		return
	}
	if !ev.Type.IsHook() {
		switch ev.Type {
		case events.TypeSetup, events.TypeRefer, events.TypeAgentReport, events.TypeReject, events.TypeLoad:
		default:
			return
		}
		if ev.Outcome != events.OutcomeOK {
			return
		}
	}
	c := m.byID[ev.SessionID]
	if c == nil {
		c = &complianceRow{ID: ev.SessionID}
		m.byID[ev.SessionID] = c
	} else if ev.Type == events.TypeLoad {
		return // nothing to count
	}
	switch ev.Type {
	case events.TypeSessionStart:
		c.HookStarts++
		if p, ok := d.payload.(*events.SessionStartData); ok {
			if c.Host == "" {
				c.Host = p.Host
			}
			if c.Model == "" {
				c.Model = p.Model
			}
		}
		m.hooked = true
	case events.TypeSetup:
		if c.Setups == 0 && c.HookStarts == 0 && m.hooked {
			c.InventedID = true
		}
		c.Setups++
	case events.TypeUserPrompt:
		c.Prompts++
		c.Pending = true
		c.BlocksInRow = 0
		c.Rejected = false
	case events.TypeAgentReport, events.TypeReject:
		if c.Pending {
			c.Answered++
			c.Pending = false
		}
		c.BlocksInRow = 0
		p, ok := d.payload.(*events.RejectData)
		c.Rejected = ok && strings.TrimSpace(p.Reason) != ""
	case events.TypeStopBlocked:
		c.StopsBlocked++
		c.BlocksInRow++
	case events.TypeRefer:
		if r, ok := d.payload.(refs); ok {
			c.Refs += uint64(len(r))
		}
	}
	m.touched[ev.SessionID] = struct{}{}
}

func (m *complianceModel) Write(w *engine.RowWriter) {
	for id := range m.touched {
		w.JSON(complianceKey(id), m.byID[id])
	}
	clear(m.touched)
}

func (m *complianceModel) Load(k string, v []byte) error {
	r := new(complianceRow)
	if err := json.Unmarshal(v, r); err != nil {
		return err
	}
	m.byID[k[len(prefixCompliance):]] = r
	m.hooked = m.hooked || r.HookStarts > 0
	return nil
}

// Compliance returns the compliance of every session the model knows,
// sorted by id.
func (s *Store) Compliance() []Compliance {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Compliance, 0, len(s.st.compliance.byID))
	for _, r := range s.st.compliance.byID {
		out = append(out, r.compliance())
	}
	slices.SortFunc(out, func(a, b Compliance) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// SessionCompliance returns the compliance of one session, or
// ErrNotFound if the ledger has nothing of it that the model counts.
func (s *Store) SessionCompliance(id string) (Compliance, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if r, ok := s.st.compliance.byID[id]; ok {
		return r.compliance(), nil
	}
	return Compliance{}, ErrNotFound
}
