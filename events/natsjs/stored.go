package natsjs

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/events"
)

func isWrongLast(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}

// AppendStored stores events read from another copy of the ledger exactly
// as they were stored there: each ev.Raw at sequence ev.Seq, in order,
// under ev's subject and with its id as Nats-Msg-Id. It is how a ledger is
// imported. The stream must end at evs[0].Seq-1 and the sequences must
// follow on; every message is stored on that condition, so a message
// that would land elsewhere stores nothing and fails with an error wrapping
// events.ErrConflict. The messages are published in a pipeline and
// AppendStored returns once all are acknowledged. It fails with an error
// wrapping events.ErrMalformed for an event without Raw or of another
// workspace.
func (l *Log) AppendStored(ctx context.Context, evs []events.Event) error {
	futures := make([]jetstream.PubAckFuture, 0, len(evs))
	for i := range evs {
		ev := &evs[i]
		switch {
		case len(ev.Raw) == 0:
			return fmt.Errorf("store seq %d: %w: no stored bytes", ev.Seq, events.ErrMalformed)
		case ev.WorkspaceID != l.workspaceID:
			return fmt.Errorf("store seq %d: %w: event of workspace %s in the log of %s", ev.Seq, events.ErrMalformed, ev.WorkspaceID, l.workspaceID)
		case i > 0 && ev.Seq != evs[i-1].Seq+1:
			return fmt.Errorf("store seq %d: %w: it follows seq %d", ev.Seq, events.ErrMalformed, evs[i-1].Seq)
		}
		f, err := l.js.PublishMsgAsync(&nats.Msg{Subject: ev.Subject(), Data: ev.Raw},
			jetstream.WithMsgID(ev.ID), jetstream.WithExpectLastSequence(ev.Seq-1), jetstream.WithExpectStream(l.name))
		if err != nil {
			return fmt.Errorf("store seq %d: %w", ev.Seq, err)
		}
		futures = append(futures, f)
	}
	var first error
	for i, f := range futures {
		select {
		case ack := <-f.Ok():
			if ack.Sequence != evs[i].Seq && first == nil {
				first = fmt.Errorf("store seq %d: stored at seq %d", evs[i].Seq, ack.Sequence)
			}
		case err := <-f.Err():
			if isWrongLast(err) {
				err = fmt.Errorf("%w: the stream does not end at seq %d", events.ErrConflict, evs[i].Seq-1)
			}
			if first == nil {
				first = fmt.Errorf("store seq %d: %w", evs[i].Seq, err)
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return first
}
