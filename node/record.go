package node

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/events"
)

// settleFor bounds how long Record keeps trying to learn the outcome of an
// append before it answers: the first attempt and the same event appended
// again. It stays well below the tool-call timeouts of agent hosts (60 s
// in the MCP TypeScript SDK and in Codex), so that a host never gives up
// on a call whose answer is still coming.
const settleFor = 20 * time.Second

// settlePause is the pause between two attempts of one append.
const settlePause = 100 * time.Millisecond

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
// with the same event, which the stream stores once. Its answer is one of
// three, and always the truth:
//
//   - nil: ev is stored, once.
//   - an error that does not wrap ErrOutcomeUnknown (ErrUnavailable,
//     events.ErrConflict, ...): ev is not stored, and never will be from
//     this call. That holds only when every attempt was answered with a
//     refusal (events.ErrRefused) or never reached an owner, or the last
//     was a definite answer about ev itself (a conflict).
//   - an *OutcomeUnknownError: an attempt reached an owner that neither
//     stored nor refused ev before settleFor passed (it is stopped, its
//     disk stalls). ev is stored at most once, whatever happens: every
//     attempt carries the same event id, which the stream deduplicates.
//     The Handle goes on appending the same event in the background until
//     the stream answers (see settleLater), so that it ends up stored
//     exactly once unless the stream refuses it for good.
//
// The first attempt runs under ctx; within settleFor of its start, even
// once ctx has ended, an attempt whose outcome is open (the owner went, ctx
// ended, the answer was lost) is followed by another with the same event:
// JetStream's answer decides (stored now, or stored before: the
// duplicate's sequence; a conflict: not stored).
//
// A stored event that changes the catalog is waited for until the read
// models have applied it; if they cannot (the projector stopped), the
// event is still stored and record says so: it logs the delay and returns
// nil. The next read answers unavailable until a new owner has caught up.
func (h *Handle) record(ctx context.Context, ev events.Event, exp *events.Expectation) error {
	a := appendState{first: time.Now()}
	fctx, fcancel := context.WithDeadline(ctx, a.first.Add(settleFor))
	seq, err := h.appendOnce(fctx, ev, exp, &a)
	fcancel()
	// Only a failed first attempt pays for the settling context.
	sctx, cancel := context.Background(), context.CancelFunc(func() {})
	if err != nil {
		sctx, cancel = context.WithDeadline(context.WithoutCancel(ctx), a.first.Add(settleFor))
	}
	// No owner starts on a full disk: the outcome stays open until space
	// is freed, and the agent hears so at once.
	for err != nil && a.open(err) && sctx.Err() == nil && h.noSpace() == nil {
		h.logger.Warn("the outcome of an append is unknown; appending the same event again", "id", ev.ID, "type", ev.Type, "err", err)
		select {
		case <-sctx.Done():
		case <-time.After(settlePause):
		}
		seq, err = h.appendOnce(sctx, ev, exp, &a)
	}
	cancel()
	if err != nil && a.open(err) {
		h.settleLater(ev, exp, a)
		return &OutcomeUnknownError{EventID: ev.ID, Type: ev.Type, Err: err}
	}
	var ce *events.ConflictError
	if errors.As(err, &ce) {
		return h.afterConflict(ctx, ce, err)
	}
	if err != nil {
		if !errors.Is(err, ErrUnavailable) && !settled(err) {
			// Refused by the store, or never sent: not stored.
			err = fmt.Errorf("%w: %s %s is not stored: %w", ErrUnavailable, ev.Type, ev.ID, err)
		}
		return err
	}
	h.stored(ctx, ev, seq)
	return nil
}

// stored is what follows an event's append: a catalog change waits for the
// read models and goes to the hub if it is a team's.
func (h *Handle) stored(ctx context.Context, ev events.Event, seq uint64) {
	if !ev.ChangesCatalog() {
		return
	}
	if _, werr := mWaitFor.call(ctx, h, seq); werr != nil {
		h.logger.Warn("stored, but the read models have not applied it", "id", ev.ID, "type", ev.Type, "seq", seq, "err", werr)
	}
	h.submitIfTeam(ctx, ev)
}

// appendState is what the attempts of one append have learnt.
type appendState struct {
	first time.Time // when the first attempt started
	// maybe is set once an attempt reached an owner and failed without a
	// refusal: the event may be stored by it.
	maybe bool
}

// open reports whether err, the latest attempt's, leaves the outcome
// open: the event may be stored, and nothing said it is or is not.
func (a *appendState) open(err error) bool {
	return a.maybe && !settled(err)
}

// note records the result of one attempt that reached a backend.
func (a *appendState) note(err error) {
	if err != nil && !settled(err) && !errors.Is(err, events.ErrRefused) {
		a.maybe = true
	}
}

// appendOnce appends ev through whichever process owns the workspace,
// noting in a what each attempt says about the outcome.
func (h *Handle) appendOnce(ctx context.Context, ev events.Event, exp *events.Expectation, a *appendState) (uint64, error) {
	return do(h, ctx, func(ctx context.Context, b backend) (uint64, error) {
		var seq uint64
		var err error
		if exp == nil {
			seq, err = b.log().Append(ctx, ev)
		} else {
			seq, err = b.log().AppendExpecting(ctx, ev, *exp)
		}
		a.note(err)
		return seq, err
	})
}

// settled reports whether an append that failed with err has a definite
// answer about its event: not stored, whatever earlier attempts did.
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
