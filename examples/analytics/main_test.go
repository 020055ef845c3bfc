package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer that run may write while the test reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestRun(t *testing.T) {
	url, l := startServer(t)
	appendCalls(t, l, firstCalls...)
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	var out lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, config{url: url, token: token, ws: workspace, durable: "run", every: 20 * time.Millisecond}, &out)
	}()

	want := "5 events (last seq 5), 2 sessions"
	deadline := time.Now().Add(wait)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("got output\n%s\nwant a summary with %q within %s", out.String(), want, wait)
		}
		time.Sleep(10 * time.Millisecond)
	}
	printed := strings.Count(out.String(), "TOOL")
	cancel() // as Ctrl-C does
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: got %v, want nil after a stop", err)
		}
	case <-time.After(wait):
		t.Fatal("run still going after a stop, want it to return")
	}
	if got := strings.Count(out.String(), "TOOL"); got <= printed {
		t.Errorf("got %d summaries after the stop, want one more than %d", got, printed)
	}
}

func TestParseFlags(t *testing.T) {
	t.Run("Defaults", func(t *testing.T) {
		t.Setenv("CLUMSIES_NATS_TOKEN", "from-env")
		cfg, err := parseFlags([]string{"--workspace", "ws-1234"}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.url != "nats://127.0.0.1:4333" || cfg.token != "from-env" || cfg.durable != "analytics" || cfg.every != 10*time.Second {
			t.Errorf("got %+v, want the documented defaults", cfg)
		}
		if got, want := cfg.streamName(), "CLUMSIES_ws-1234"; got != want {
			t.Errorf("stream: got %s, want %s", got, want)
		}
		if got, want := cfg.filter(), "clumsies.ws-1234.attest.>"; got != want {
			t.Errorf("filter: got %s, want %s", got, want)
		}
	})

	t.Run("StreamOnly", func(t *testing.T) {
		cfg, err := parseFlags([]string{"--stream", "HUB"}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := cfg.filter(), "clumsies.*.attest.>"; cfg.streamName() != "HUB" || got != want {
			t.Errorf("got stream %s filter %s, want HUB and %s", cfg.streamName(), got, want)
		}
	})

	for name, args := range map[string][]string{
		"NoWorkspace":  {},
		"BadWorkspace": {"--workspace", "1234"},
		"EmptyDurable": {"--workspace", "ws-1", "--durable", ""},
		"ZeroEvery":    {"--workspace", "ws-1", "--every", "0s"},
		"ExtraArg":     {"--workspace", "ws-1", "more"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := parseFlags(args, io.Discard); err == nil || errors.Is(err, flag.ErrHelp) {
				t.Errorf("parseFlags(%q): got %v, want an error", args, err)
			}
		})
	}
}
