package mcp

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/clumsies/clumsies/events"
)

type unreachable struct{}

func (unreachable) Error() string     { return "owner gone" }
func (unreachable) Unavailable() bool { return true }

func TestClassify(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cases := []struct {
		name string
		err  error
		want events.Code
	}{
		{"ToolErrorKept", toolErr(events.CodeNotFound, "file not found in cache"), events.CodeNotFound},
		{"UnavailableBackend", fmt.Errorf("view p-1: %w", unreachable{}), events.CodeUnavailable},
		{"AnythingElseIsInternal", errors.New("pebble: corrupt block at 0x1f"), events.CodeInternal},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := classify(c.err, log, "memload")
			if got.Code != c.want {
				t.Fatalf("got %s, want %s", got.Code, c.want)
			}
			if c.want == events.CodeInternal && got.Message != msgInternal {
				t.Fatalf("got message %q, want the short internal message (no Go error text)", got.Message)
			}
		})
	}
}
