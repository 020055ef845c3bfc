package hub

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"

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
func countSession(b *pebble.Batch, counts map[counter]uint64, at counter, nodeID string, ev *events.Event) error {
	k := keySession(nodeID, ev.SessionID)
	row := sessionRow{Day: at.Day}
	v, closer, err := b.Get(k)
	switch {
	case err == nil:
		err = json.Unmarshal(v, &row)
		closer.Close()
		if err != nil {
			return fmt.Errorf("read session %s of node %s: %w", ev.SessionID, nodeID, err)
		}
	case !errors.Is(err, pebble.ErrNotFound):
		return err
	}
	was := row.Kind()
	row.Fold(ev)
	now := row.Kind()
	if now == was && v != nil {
		return nil
	}
	at.Day = row.Day
	add := func(metric string) {
		c := at
		c.Metric = metric
		counts[c]++
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
		return err
	}
	return b.Set(k, out, nil)
}
