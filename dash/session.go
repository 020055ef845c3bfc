package dash

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/projections"
)

// Sessions is the API's list of sessions: GET /api/sessions, newest
// first, at most MaxSessions.
type Sessions struct {
	Total int            `json:"total"`
	Items []SessionBrief `json:"items"`
}

// MaxSessions bounds the sessions list; MaxTimeline a session's timeline.
const (
	MaxSessions = 200
	MaxTimeline = 500
)

// Session is the API's page of one session: GET /api/sessions/{id}.
type Session struct {
	projections.Session
	// Compliance is what the host's hooks show of it; nil when no hook
	// event or setup was counted.
	Compliance *projections.Compliance `json:"compliance,omitempty"`
	// Timeline is the session's events in ledger order, the last
	// MaxTimeline of them; Older is set when older ones were left out.
	Timeline []projections.TimelineEntry `json:"timeline"`
	Older    bool                        `json:"older"`
}

func sessions(src Source) Sessions {
	all := src.Sessions()
	return Sessions{Total: len(all), Items: recentAll(all, MaxSessions)}
}

// recentAll returns the n sessions with the latest last event, newest
// first, whether they set up or not.
func recentAll(all []projections.Session, n int) []SessionBrief {
	slices.SortFunc(all, func(a, b projections.Session) int {
		return cmp.Or(strings.Compare(b.Last, a.Last), strings.Compare(a.ID, b.ID))
	})
	out := make([]SessionBrief, 0, min(n, len(all)))
	for _, s := range all[:min(n, len(all))] {
		out = append(out, SessionBrief{s})
	}
	return out
}

func session(ctx context.Context, src Source, id string) (Session, error) {
	s, err := src.Session(id)
	if err != nil {
		return Session{}, err
	}
	out := Session{Session: s}
	if c, err := src.SessionCompliance(id); err == nil {
		out.Compliance = &c
	} else if !errors.Is(err, projections.ErrNotFound) {
		return Session{}, err
	}
	out.Timeline, out.Older, err = src.Timeline(ctx, id, MaxTimeline)
	if out.Timeline == nil {
		out.Timeline = []projections.TimelineEntry{}
	}
	return out, err
}
