package hub

import (
	"encoding/json"
	"fmt"

	"github.com/clumsies/clumsies/events"
)

// sessionRow is what the hub keeps of a session of a node (key k): the
// day it was first seen and its marks, so that it is counted by its kind
// (events.SessionKind) on that day, as the workspace counts it.
type sessionRow struct {
	Day string `json:"day"`
	events.SessionMarks
}

// countSession folds ev into its session's row and counts the session
// when its kind changes: metricSessions when it is set up,
// metricHookSessions when hooks see it first, and metricHookSetUp when
// one of those sets up later. Seen by hooks only is then
// metricHookSessions less metricHookSetUp, for any window of days.
func (m *countsModel) countSession(at counter, it *hubItem) {
	ev := it.ev
	k := keySession(at.Node, ev.SessionID)
	row := sessionRow{Day: at.Day}
	v, stored := m.rows.Get(k)
	if stored {
		if err := json.Unmarshal(v, &row); err != nil {
			m.rows.Fail(fmt.Errorf("read session %s of node %s: %w", ev.SessionID, at.Node, err))
			return
		}
	}
	was := row.Kind()
	row.Fold(ev)
	now := row.Kind()
	if now == was && stored {
		return
	}
	at.Day = row.Day
	m.marks.day(at.Day, it.seq)
	add := func(metric string) {
		c := at
		c.Metric = metric
		m.counts[c]++
	}
	switch {
	case now == was:
	case now == events.SessionSetUp && was == events.SessionHooksOnly:
		add(metricSessions)
		add(metricHookSetUp)
	case now == events.SessionSetUp:
		add(metricSessions)
	case now == events.SessionHooksOnly:
		add(metricHookSessions)
	}
	out, err := json.Marshal(row)
	if err != nil {
		m.rows.Fail(err)
		return
	}
	m.rows.Set(k, out)
}
