package main_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// TestServe_AnswerLostAppendSettled stops the owning `clumsies serve`
// (SIGSTOP) while another process appends: the append reaches the owner's
// socket, but its answer cannot come before the caller's deadline. The
// owner resumes 1.5 s later and stores the event. Record must tell the
// truth: it settles the outcome by appending the same event again and
// reading JetStream's answer, so it reports success, and the event is
// stored once. (An answer "unavailable, retry" for a stored event makes the
// agent's retry count twice.)
func TestServe_AnswerLostAppendSettled(t *testing.T) {
	dir := newWorkspace(t)
	c := cluster(t, dir, 1)
	owner := c.Procs[0]
	ws, err := workspace.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	h, err := node.Attach(context.Background(), ws, node.Options{RetryFor: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if h.IsOwner() {
		t.Fatal("the test process owns the workspace; want serve to")
	}
	ev, err := events.New(ws.ID(), events.TypeAgentReport, events.AgentReportData{Summary: "settled"})
	if err != nil {
		t.Fatal(err)
	}
	ev.SessionID, ev.Tool = "settle", "agentreport"

	if err := owner.Cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	resumed := time.AfterFunc(1500*time.Millisecond, func() { owner.Cmd.Process.Signal(syscall.SIGCONT) })
	defer resumed.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	err = h.Record(ctx, ev)
	cancel()
	if err != nil {
		t.Fatalf("record while the owner was stopped: %v; want the settled outcome, stored", err)
	}
	stored := 0
	if err := h.Replay(context.Background(), 1, func(e events.Event) error {
		if e.ID == ev.ID {
			stored++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if stored != 1 {
		t.Fatalf("the event is stored %d times, want once", stored)
	}
}
