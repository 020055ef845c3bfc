package node_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
)

// A call on an Opening waits until the workspace is open, then reaches
// its handle; one whose context ends first returns the context's error.
func TestOpening_WaitsForTheOpen(t *testing.T) {
	h := attach(t, newWorkspace(t))
	if _, err := h.Publish(context.Background()); err != nil {
		t.Fatal(err)
	}
	o := node.NewOpening()
	short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := o.List(short, projections.Filter{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a call before the open, its context ended: %v, want the deadline", err)
	}
	listed := make(chan error, 1)
	go func() {
		items, err := o.List(context.Background(), projections.Filter{})
		if err == nil && len(items) == 0 {
			err = errors.New("no items")
		}
		listed <- err
	}()
	o.Done(h, nil)
	if err := <-listed; err != nil {
		t.Fatalf("a call waiting for the open: %v", err)
	}
	<-o.Ready()
	if got, err := o.Result(); got != h || err != nil {
		t.Fatalf("Result: %v, %v, want the handle", got, err)
	}
}

// A workspace that could not be opened makes every call fail as
// unavailable, with the reason, wrapping the open's error.
func TestOpening_FailedOpenIsUnavailable(t *testing.T) {
	o := node.NewOpening()
	why := errors.New("the state folder is read-only")
	o.Done(nil, why)
	ev, err := events.New("ws-x", events.TypeSessionStart, events.SessionStartData{Host: "claude-code"})
	if err != nil {
		t.Fatal(err)
	}
	err = o.Record(context.Background(), ev)
	var ua interface {
		Unavailable() bool
		Reason() string
	}
	if !errors.Is(err, why) || !errors.As(err, &ua) || !ua.Unavailable() || ua.Reason() != why.Error() {
		t.Fatalf("a call after a failed open: %v, want unavailable with the reason %q", err, why)
	}
}
