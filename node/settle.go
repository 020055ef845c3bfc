package node

import (
	"context"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
)

// OutcomeUnknownError is Record's answer when an append reached an owner
// that neither stored nor refused the event within settleFor: it is
// stored at most once, and the Handle keeps appending the same event in
// the background until the stream answers. The MCP layer answers
// outcome_unknown (not retryable) with the event id.
type OutcomeUnknownError struct {
	EventID string
	Type    events.Type
	Err     error // the last attempt's
}

func (e *OutcomeUnknownError) Error() string {
	return fmt.Sprintf("node: the outcome of appending %s %s is not known yet (it is stored at most once, and is being settled): %v", e.Type, e.EventID, e.Err)
}

func (e *OutcomeUnknownError) Unwrap() error { return e.Err }

// OutcomeUnknown returns the id of the event whose outcome is open; the
// MCP layer looks for this method.
func (e *OutcomeUnknownError) OutcomeUnknown() string { return e.EventID }

// settleWithin bounds the background settling of one append, from its
// first attempt: within the stream's dedupe window an append of the same
// id can never store it a second time; past it, it could. The margin
// (30 s of the 2-minute window, leaving 90 s) covers an attempt in flight
// (settleAttempt), sent before settleWithin and stored after it. The
// processes share one machine's clock: the owner is reached through a
// unix socket.
const settleWithin = natsjs.DefaultDedupeWindow - 30*time.Second

// settleAttempt bounds one attempt of the background settling.
const settleAttempt = 10 * time.Second

// closeSettleWait bounds how long Close waits for appends still being
// settled in the background.
const closeSettleWait = 10 * time.Second

// settleLater goes on appending ev in the background until the stream
// answers: stored (now or before), or refused for good (a conflict). Until
// settleWithin has passed since the first attempt it tries again every
// second; the stream stores ev at most once throughout. Close waits for
// it a while (closeSettleWait) and then logs the events it leaves open.
func (h *Handle) settleLater(ev events.Event, exp *events.Expectation, a appendState) {
	h.settling.Add(1)
	go func() {
		defer h.settling.Done()
		giveUp := a.first.Add(settleWithin)
		for {
			ctx, cancel := context.WithTimeout(h.settleCtx, settleAttempt)
			seq, err := h.appendOnce(ctx, ev, exp, &a)
			cancel()
			switch {
			case err == nil:
				h.logger.Info("settled an append whose outcome was unknown: stored", "id", ev.ID, "type", ev.Type, "seq", seq, "after", time.Since(a.first).Round(time.Millisecond))
				h.stored(h.settleCtx, ev, seq)
				return
			case settled(err):
				h.logger.Warn("settled an append whose outcome was unknown: not stored", "id", ev.ID, "type", ev.Type, "err", err)
				return
			case h.settleCtx.Err() != nil:
				h.logger.Error("exiting with an append whose outcome is unknown: the event is stored at most once; `clumsies events --json` shows whether it is", "id", ev.ID, "type", ev.Type)
				return
			case time.Now().After(giveUp):
				h.logger.Error("gave up settling an append: the event is stored at most once; `clumsies events --json` shows whether it is", "id", ev.ID, "type", ev.Type, "err", err)
				return
			}
			select {
			case <-h.settleCtx.Done():
			case <-time.After(time.Second):
			}
		}
	}()
}

// waitSettling waits up to closeSettleWait for the appends being settled
// in the background, then ends them.
func (h *Handle) waitSettling() {
	done := make(chan struct{})
	go func() { h.settling.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(closeSettleWait):
		h.settleCancel()
		<-done
	}
	h.settleCancel()
}
