package dash

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/dayrange"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// Sessions is the API's list of sessions: GET /api/sessions, newest
// first, at most MaxSessions.
type Sessions struct {
	// Range holds the sessions first seen in it; Total counts them.
	Range dayrange.Range `json:"range"`
	Total int            `json:"total"`
	Items []SessionBrief `json:"items"`
}

// MaxSessions bounds the sessions list; MaxTimeline a session's timeline.
const (
	MaxSessions = 200
	MaxTimeline = 200
)

// maxTimelineData is the largest payload a timeline entry shows.
const maxTimelineData = 4 << 10

// TimelineEntry is one event of a session as its timeline shows it.
type TimelineEntry struct {
	Seq        uint64          `json:"seq"`
	ID         string          `json:"id"`
	Type       events.Type     `json:"type"`
	Time       string          `json:"time"`
	Tool       string          `json:"tool,omitempty"`
	Outcome    events.Outcome  `json:"outcome"`
	ErrorCode  string          `json:"errorCode,omitempty"`
	DurationUs int64           `json:"durationUs"`
	Data       json.RawMessage `json:"data,omitempty"`
	// DataOmitted is set when the payload is larger than a timeline shows
	// (4 KiB); the ledger has it.
	DataOmitted bool `json:"dataOmitted,omitempty"`
}

func timelineEntry(ev events.Event) TimelineEntry {
	e := TimelineEntry{
		Seq: ev.Seq, ID: ev.ID, Type: ev.Type, Time: ev.Time, Tool: ev.Tool, Outcome: ev.Outcome,
		ErrorCode: ev.ErrorCode, DurationUs: ev.DurationUs,
	}
	if len(ev.Data) <= maxTimelineData {
		e.Data = withoutSecretHash(ev.Data)
	} else {
		e.DataOmitted = true
	}
	return e
}

// withoutSecretHash returns a payload without its secretHash (the hash of
// a session secret, attest.session_start and attest.setup): the pages
// never show anything of a secret.
func withoutSecretHash(data json.RawMessage) json.RawMessage {
	if !strings.Contains(string(data), `"secretHash"`) {
		return data
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	delete(m, "secretHash")
	out, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return out
}

// Session is the API's page of one session: GET /api/sessions/{id}.
type Session struct {
	projections.Session
	// Who ran it: the host and model its hooks named, else the MCP client.
	Who
	// Compliance is what the host's hooks show of it; nil when no hook
	// event or setup was counted.
	Compliance *projections.Compliance `json:"compliance,omitempty"`
	// Evidence is what the post-tool hooks saw it touch, the rules in
	// scope, loaded and claimed; nil when it has none.
	Evidence *projections.SessionEvidence `json:"evidence,omitempty"`
	// Timeline is the session's events in ledger order, the last
	// MaxTimeline of them; Older is set when older ones were left out.
	Timeline []TimelineEntry `json:"timeline"`
	Older    bool            `json:"older"`
	// Rules names, by id, the published rules the timeline and the
	// evidence mention (loads, refs, edits in scope).
	Rules map[string]RuleName `json:"rules"`
}

// sessions lists the sessions first seen in rg, newest first, at most n
// (0: all of them), each with its host.
func sessions(src Source, rg dayrange.Range, n int) Sessions {
	all := SessionsIn(src.Sessions(), rg)
	if n == 0 {
		n = len(all)
	}
	out := Sessions{Range: rg, Total: len(all), Items: recentAll(all, n)}
	who := whoIndex(src)
	for i := range out.Items {
		w := who[out.Items[i].ID]
		out.Items[i].Host, out.Items[i].Model = w.Host, w.Model
	}
	return out
}

// recentAll returns the n sessions with the latest last event, newest
// first, whether they set up or not.
func recentAll(all []projections.Session, n int) []SessionBrief {
	slices.SortFunc(all, func(a, b projections.Session) int {
		return cmp.Or(strings.Compare(b.Last, a.Last), strings.Compare(a.ID, b.ID))
	})
	out := make([]SessionBrief, 0, min(n, len(all)))
	for _, s := range all[:min(n, len(all))] {
		out = append(out, SessionBrief{Session: s})
	}
	return out
}

func session(ctx context.Context, src Source, evs Events, id string) (Session, error) {
	s, err := src.Session(id)
	if err != nil {
		return Session{}, err
	}
	out := Session{Session: s}
	c, err := src.SessionCompliance(id)
	switch {
	case err == nil:
		out.Compliance = &c
	case !errors.Is(err, projections.ErrNotFound):
		return Session{}, err
	}
	out.Who = whoOf(s, c)
	if e, err := src.SessionEvidence(id); err == nil {
		out.Evidence = &e
	} else if !errors.Is(err, projections.ErrNotFound) {
		return Session{}, err
	}
	seqs, older, err := src.Timeline(ctx, id, MaxTimeline)
	if err != nil {
		return Session{}, err
	}
	out.Older, out.Timeline = older, make([]TimelineEntry, 0, len(seqs))
	for _, seq := range seqs {
		ev, err := evs.Get(ctx, seq)
		if err != nil {
			return Session{}, fmt.Errorf("read the events of session %s: %w", id, err)
		}
		out.Timeline = append(out.Timeline, timelineEntry(ev))
	}
	if out.Rules, err = ruleNames(src, out.Timeline, out.Evidence); err != nil {
		return Session{}, fmt.Errorf("read the rules of session %s: %w", id, err)
	}
	return out, nil
}
