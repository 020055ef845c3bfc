package mcp

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"
)

type unreachable struct{}

func (unreachable) Error() string     { return "owner gone" }
func (unreachable) Unavailable() bool { return true }

func TestClassify(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cases := []struct {
		name string
		err  error
		want Code
	}{
		{"ToolErrorKept", toolErr(CodeNotFound, "file not found in cache"), CodeNotFound},
		{"UnavailableBackend", fmt.Errorf("view p-1: %w", unreachable{}), CodeUnavailable},
		{"AnythingElseIsInternal", errors.New("pebble: corrupt block at 0x1f"), CodeInternal},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := classify(c.err, log, "memload")
			if got.Code != c.want {
				t.Fatalf("got %s, want %s", got.Code, c.want)
			}
			if c.want == CodeInternal && got.Message != msgInternal {
				t.Fatalf("got message %q, want the short internal message (no Go error text)", got.Message)
			}
		})
	}
}
