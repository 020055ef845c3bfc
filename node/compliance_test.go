package node_test

import (
	"context"
	"errors"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// A remote reads a session's compliance through the owner, and the read
// counts the events appended just before it, which the projections apply
// without anybody waiting.
func TestHandle_SessionCompliance(t *testing.T) {
	ws, owner, remote := ownerAndRemote(t)
	ctx := context.Background()
	prompt, err := events.New(ws.ID(), events.TypeUserPrompt, events.UserPromptData{Host: "codex", SHA256: "sha256:00", Length: 1})
	if err != nil {
		t.Fatal(err)
	}
	prompt.SessionID = "s1"
	if err := remote.Record(ctx, prompt); err != nil {
		t.Fatal(err)
	}
	for _, h := range []*struct {
		name string
		read func(context.Context, string) (projections.Compliance, error)
	}{{"owner", owner.SessionCompliance}, {"remote", remote.SessionCompliance}} {
		c, err := h.read(ctx, "s1")
		if err != nil || c.Prompts != 1 || !c.Pending {
			t.Errorf("%s: got %+v, %v; want one pending prompt", h.name, c, err)
		}
	}
	if err := remote.Record(ctx, report(t, ws, "done")); err != nil {
		t.Fatal(err)
	}
	c, err := remote.SessionCompliance(ctx, "s1")
	if err != nil || c.Pending || c.Answered != 1 {
		t.Errorf("after the report got %+v, %v; want the prompt answered", c, err)
	}
	if _, err := remote.SessionCompliance(ctx, "nobody"); !errors.Is(err, projections.ErrNotFound) {
		t.Errorf("unknown session: got %v, want ErrNotFound", err)
	}
}
