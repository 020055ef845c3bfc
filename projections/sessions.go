package projections

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// Session sums up the events of one agent session.
type Session struct {
	ID    string `json:"id"`
	First string `json:"first"` // earliest event time (events.TimeLayout)
	Last  string `json:"last"`  // latest event time
	// Calls counts the session's tool calls, failed ones included; Hooks
	// the events its host's hooks recorded (session starts, prompts,
	// blocked stops, file edits), which are no tool calls.
	Calls uint64 `json:"calls"`
	Hooks uint64 `json:"hooks"`
	// SetUp reports a successful memsetup: only such sessions are agent
	// sessions (a call refused before memsetup has none, and a refused
	// memsetup records its event under the session its connection has).
	SetUp bool `json:"setUp,omitempty"`
	// Hooked reports that a host hook recorded an event of the session;
	// a session hooked and not set up is seen by hooks only (Kind).
	Hooked  bool   `json:"hooked,omitempty"`
	Refs    uint64 `json:"refs"` // refs of successful memref calls
	Reports uint64 `json:"reports"`
	Rejects uint64 `json:"rejects"`
	// Bound says how the session is bound to whoever set it up, as its
	// latest successful memsetup said (events.BoundByHook,
	// events.BoundByMemsetup); "" for a session set up unbound (before
	// sessions were bound) or not set up.
	Bound string `json:"bound,omitempty"`
	// Client names the MCP client of its latest successful memsetup:
	// "name version".
	Client string `json:"client,omitempty"`
}

// prefixSession is the sessions' key prefix: s/<sessionId> holds a
// sessionRow.
const prefixSession = "s/"

func sessionKey(id string) []byte { return []byte(prefixSession + id) }

// sessionRow is a session as the model keeps it, in memory and on disk:
// its own type, so that the API type can change without changing the
// layout.
type sessionRow struct {
	ID    string `json:"id"`
	First string `json:"first"`
	Last  string `json:"last"`
	Calls uint64 `json:"calls"`
	Hooks uint64 `json:"hooks"`
	events.SessionMarks
	Refs    uint64 `json:"refs"`
	Reports uint64 `json:"reports"`
	Rejects uint64 `json:"rejects"`
	Bound   string `json:"bound,omitempty"`
	Client  string `json:"client,omitempty"`
	// Secrets are the hashes of the secrets the session was handed
	// (sessionbinding.go); never shown.
	Secrets []SessionSecret `json:"secrets,omitempty"`
}

func (r *sessionRow) session() Session {
	return Session{
		ID: r.ID, First: r.First, Last: r.Last, Calls: r.Calls, Hooks: r.Hooks, SetUp: r.SetUp, Hooked: r.Hooked,
		Refs: r.Refs, Reports: r.Reports, Rejects: r.Rejects, Bound: r.Bound, Client: r.Client,
	}
}

// sessionsModel is the read model of sessions: what the events of each
// session id add up to.
type sessionsModel struct {
	byID    map[string]*sessionRow
	touched map[string]struct{} // ids, since the last write
}

func newSessionsModel() *sessionsModel {
	return &sessionsModel{byID: make(map[string]*sessionRow), touched: make(map[string]struct{})}
}

// Kind is the session's kind (events.SessionKind): set up, seen by
// hooks only, or neither.
func (s Session) Kind() events.SessionKind {
	return events.SessionMarks{SetUp: s.SetUp, Hooked: s.Hooked}.Kind()
}

func (m *sessionsModel) Prefixes() []string { return []string{prefixSession} }

// Folds implements folder.
func (m *sessionsModel) Folds() []events.Type {
	return []events.Type{events.TypeRefer, events.TypeSetup, events.TypeSessionStart}
}

// apply counts an event for its session, whatever its outcome: a tool
// call as a call, a hook's event as a hook (other events, reviews, count
// in neither but move its times). Setups,
// reports, rejects and refs count only successful calls. Times are
// compared as strings: events.TimeLayout is fixed-width UTC, so that is
// chronological.
func (m *sessionsModel) Apply(d decoded) {
	ev := d.ev
	if ev.SessionID == "" {
		return
	}
	s := m.byID[ev.SessionID]
	if s == nil {
		s = &sessionRow{ID: ev.SessionID}
		m.byID[ev.SessionID] = s
	}
	switch {
	case ev.Type.IsTool():
		s.Calls++
	case ev.Type.IsHook():
		s.Hooks++
	}
	s.Fold(ev)
	if t := ev.Time; t != "" {
		if s.First == "" || t < s.First {
			s.First = t
		}
		if t > s.Last {
			s.Last = t
		}
	}
	if ev.Outcome == events.OutcomeOK {
		switch ev.Type {
		case events.TypeAgentReport:
			s.Reports++
		case events.TypeReject:
			s.Rejects++
		}
	}
	switch p := d.payload.(type) {
	case refs:
		s.Refs += uint64(len(p))
	case *events.SetupData:
		s.setUp(p)
	case *events.SessionStartData:
		s.addSecret(p.SecretHash, events.BoundByHook)
	}
	m.touched[ev.SessionID] = struct{}{}
}

func (m *sessionsModel) Write(w *engine.RowWriter) {
	for id := range m.touched {
		w.JSON(sessionKey(id), m.byID[id])
	}
	clear(m.touched)
}

func (m *sessionsModel) Load(k string, v []byte) error {
	r := new(sessionRow)
	if err := json.Unmarshal(v, r); err != nil {
		return err
	}
	m.byID[k[len(prefixSession):]] = r
	return nil
}

// kinds counts the sessions of each kind.
func (m *sessionsModel) kinds() (setUp, hooksOnly int) {
	var c events.KindCounts
	for _, s := range m.byID {
		c.Add(s.Kind())
	}
	return c.SetUp, c.HooksOnly
}

// Sessions returns every session, sorted by the time of its first event,
// then by id.
func (s *Store) Sessions() []Session {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Session, 0, len(s.st.sessions.byID))
	for _, r := range s.st.sessions.byID {
		out = append(out, r.session())
	}
	slices.SortFunc(out, func(a, b Session) int {
		return cmp.Or(strings.Compare(a.First, b.First), strings.Compare(a.ID, b.ID))
	})
	return out
}
