package main

import (
	"context"
	"errors"
	"time"

	"github.com/clumsies/clumsies/events"
)

// appendTries bounds the attempts at one event of a light node.
const appendTries = 4

// appendAgain makes append's attempt again, with the same event, when it
// ended without an answer (a timeout or a lost connection: the bench
// process runs hundreds of embedded servers, and on a loaded machine a
// node's own store can stall past the publish's bound). The server may
// have stored the event then; the same event id is stored once (the
// ledger's de-duplication by Nats-Msg-Id), so it is counted once either
// way. A refusal, or the caller's context ending, is not asked again.
func appendAgain(ctx context.Context, tries int, append func(context.Context) (uint64, error)) (uint64, error) {
	var err error
	for range tries {
		var seq uint64
		if seq, err = append(ctx); err == nil {
			return seq, nil
		}
		if errors.Is(err, events.ErrRefused) || ctx.Err() != nil {
			return 0, err
		}
		select {
		case <-ctx.Done():
			return 0, err
		case <-time.After(time.Second):
		}
	}
	return 0, err
}
