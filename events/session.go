package events

// SessionKind is what the ledger says a session id is. The workspace's
// read models, its stats and dashboard, and the hub count sessions by it,
// so that every figure named "sessions" means the same thing.
type SessionKind uint8

const (
	// SessionOther is a session id that only failed tool calls carry
	// (a refused memsetup, a call without a session): no session of an
	// agent, counted nowhere.
	SessionOther SessionKind = iota
	// SessionHooksOnly is a session a host hook announced or saw, that no
	// successful memsetup bound: the host ran an agent that never set up.
	SessionHooksOnly
	// SessionSetUp is a session a successful memsetup bound: an agent
	// session. The figure "sessions" counts these.
	SessionSetUp
)

// String names the kind as the stats and the API do.
func (k SessionKind) String() string {
	switch k {
	case SessionSetUp:
		return "setUp"
	case SessionHooksOnly:
		return "hooksOnly"
	}
	return "other"
}

// SessionMarks is what the events of one session id say of its kind.
type SessionMarks struct {
	SetUp  bool `json:"setUp,omitempty"`  // a successful memsetup bound the id
	Hooked bool `json:"hooked,omitempty"` // a hook recorded an event under the id
}

// Fold marks what ev says of its session's kind.
func (m *SessionMarks) Fold(ev *Event) {
	switch {
	case ev.Type == TypeSetup && ev.Outcome == OutcomeOK:
		m.SetUp = true
	case ev.Type.IsHook():
		m.Hooked = true
	}
}

// Kind is the session's kind.
func (m SessionMarks) Kind() SessionKind {
	switch {
	case m.SetUp:
		return SessionSetUp
	case m.Hooked:
		return SessionHooksOnly
	}
	return SessionOther
}
