package projections

import (
	"cmp"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/events"
)

// Session sums up the events of one agent session.
type Session struct {
	ID    string `json:"id"`
	First string `json:"first"` // earliest event time (events.TimeLayout)
	Last  string `json:"last"`  // latest event time
	Calls uint64 `json:"calls"` // events of the session, failed calls included
	// SetUp reports a successful memsetup: only such sessions are agent
	// sessions (a call refused before memsetup has none, and a refused
	// memsetup records its event under the session its connection has).
	SetUp   bool   `json:"setUp,omitempty"`
	Refs    uint64 `json:"refs"` // refs of successful memref calls
	Reports uint64 `json:"reports"`
	Rejects uint64 `json:"rejects"`
}

// touchSession counts ev for its session, whatever its outcome. Reports and
// rejects count only successful calls. Times are compared as strings:
// events.TimeLayout is fixed-width UTC, so that is chronological.
func (st *state) touchSession(ev *events.Event, ch *changes) {
	if ev.SessionID == "" {
		return
	}
	s := st.sessions[ev.SessionID]
	if s == nil {
		s = &Session{ID: ev.SessionID}
		st.sessions[ev.SessionID] = s
	}
	s.Calls++
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
		case events.TypeSetup:
			s.SetUp = true
		case events.TypeAgentReport:
			s.Reports++
		case events.TypeReject:
			s.Rejects++
		}
	}
	ch.sessions[ev.SessionID] = struct{}{}
}

// setUpSessions counts the sessions that made a successful memsetup.
func (st *state) setUpSessions() int {
	n := 0
	for _, s := range st.sessions {
		if s.SetUp {
			n++
		}
	}
	return n
}

// Sessions returns every session, sorted by the time of its first event,
// then by id.
func (s *Store) Sessions() []Session {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Session, 0, len(s.st.sessions))
	for _, ses := range s.st.sessions {
		out = append(out, *ses)
	}
	slices.SortFunc(out, func(a, b Session) int {
		return cmp.Or(strings.Compare(a.First, b.First), strings.Compare(a.ID, b.ID))
	})
	return out
}
