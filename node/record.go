package node

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/events"
)

// settleFor bounds how long Record spends settling the outcome of an
// append whose answer was lost.
const settleFor = 10 * time.Second

// Record implements the MCP layer's Ledger: it appends ev and returns once
// it is durable and, when it changes the catalog, applied to the read
// models. Its answer is the truth about the ledger (see record).
func (h *Handle) Record(ctx context.Context, ev events.Event) error {
	return h.record(ctx, ev, nil)
}

// RecordExpecting implements the MCP layer's Ledger: Record on the
// condition that the expectation's aggregate has not moved. When it has,
// it returns an error wrapping events.ErrConflict once the read models
// have caught up with the event that came first, so the caller's next
// decision reads it.
func (h *Handle) RecordExpecting(ctx context.Context, ev events.Event, exp events.Expectation) error {
	return h.record(ctx, ev, &exp)
}

// record appends ev (on condition exp, if not nil), across owner changes
// with the same event, which the stream stores once. It returns nil
// exactly when ev is stored, and an error exactly when it is not:
//
//   - An attempt whose outcome is unknown (the owner went, ctx ended, the
//     answer was lost) is settled before record answers: the same event is
//     appended again with a deadline of its own, and JetStream's answer
//     decides (stored now, or stored before: the duplicate's sequence; a
//     conflict: not stored). Only when no owner answers for settleFor
//     either does an error leave the outcome open; it then wraps
//     ErrUnavailable.
//   - A stored event that changes the catalog is waited for until the read
//     models have applied it; if they cannot (the projector stopped), the
//     event is still stored and record says so: it logs the delay and
//     returns nil. The next read answers unavailable until a new owner has
//     caught up.
func (h *Handle) record(ctx context.Context, ev events.Event, exp *events.Expectation) error {
	seq, err := h.appendOnce(ctx, ev, exp)
	if err != nil && !settled(err) {
		h.logger.Warn("the outcome of an append is unknown; settling it", "id", ev.ID, "type", ev.Type, "err", err)
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), settleFor)
		seq, err = h.appendOnce(sctx, ev, exp)
		cancel()
		if err != nil && !settled(err) {
			return fmt.Errorf("%w: the outcome of appending %s %s is unknown: %w", ErrUnavailable, ev.Type, ev.ID, err)
		}
	}
	var ce *events.ConflictError
	if errors.As(err, &ce) {
		return h.afterConflict(ctx, ce, err)
	}
	if err != nil || !ev.ChangesCatalog() {
		return err
	}
	if _, werr := mWaitFor.call(ctx, h, seq); werr != nil {
		h.logger.Warn("stored, but the read models have not applied it", "id", ev.ID, "type", ev.Type, "seq", seq, "err", werr)
	}
	h.submitIfTeam(ctx, ev)
	return nil
}

// appendOnce appends ev through whichever process owns the workspace.
func (h *Handle) appendOnce(ctx context.Context, ev events.Event, exp *events.Expectation) (uint64, error) {
	return do(h, ctx, func(ctx context.Context, b backend) (uint64, error) {
		if exp == nil {
			return b.log().Append(ctx, ev)
		}
		return b.log().AppendExpecting(ctx, ev, *exp)
	})
}

// settled reports whether an append that failed with err is known not to
// have stored its event.
func settled(err error) bool {
	return errors.Is(err, events.ErrConflict) || errors.Is(err, events.ErrMalformed) ||
		errors.Is(err, events.ErrIncompatible)
}

// afterConflict waits until the read models have applied the event that
// came first, then returns the conflict err.
func (h *Handle) afterConflict(ctx context.Context, ce *events.ConflictError, err error) error {
	last := ce.Actual
	if last == 0 {
		var lerr error
		if last, lerr = h.LastSeq(ctx); lerr != nil {
			return fmt.Errorf("read the last sequence after a conflict: %w", lerr)
		}
	}
	if _, werr := mWaitFor.call(ctx, h, last); werr != nil {
		return fmt.Errorf("catch up with seq %d after a conflict: %w", last, werr)
	}
	return err
}
