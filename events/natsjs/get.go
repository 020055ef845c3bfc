package natsjs

import (
	"context"
	"fmt"

	"github.com/clumsies/clumsies/events"
)

// Get returns the event stored at sequence seq, with Seq and Raw set: one
// read of one message, for a reader that knows which events it wants (a
// read model's index of them), never a replay.
func (l *Log) Get(ctx context.Context, seq uint64) (events.Event, error) {
	msg, err := l.stream.GetMsg(ctx, seq)
	if err != nil {
		return events.Event{}, fmt.Errorf("get event %d of %s: %w", seq, l.name, err)
	}
	var ev events.Event
	if err := l.layout.DecodeStoredInto(&ev, msg.Data); err != nil {
		return events.Event{}, &events.StoredError{Seq: seq, Err: err}
	}
	ev.Seq = seq
	return ev, nil
}
