package main

import (
	"bufio"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// clock is a time the test moves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// TestRun_SaysWhatItDoesWhenQuiet: a tick after quietFor without a line
// says that the test binaries are compiling before any package ran, and
// which packages still run once some do; a tick sooner says nothing.
func TestRun_SaysWhatItDoesWhenQuiet(t *testing.T) {
	in, feed := io.Pipe()
	outR, outW := io.Pipe()
	clk := &clock{t: time.Unix(0, 0)}
	ticks := make(chan time.Time)
	go func() {
		runTicking(in, outW, clk.now, ticks)
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	next := lineReader(t, lines)
	ticks <- clk.now() // at once: says nothing (and the run has started)
	clk.add(quietFor / 2)
	ticks <- clk.now() // too soon: says nothing
	clk.add(quietFor / 2)
	ticks <- clk.now()
	if l := next(); !strings.Contains(l, "compiling the test binaries") {
		t.Fatalf("a tick before any package: got %q, want it to say the test binaries compile", l)
	}
	if _, err := io.WriteString(feed, ev("start", "m/slow", "", "", 0)+ev("start", "m/quick", "", "", 0)+ev("pass", "m/quick", "", "", 1)); err != nil {
		t.Fatal(err)
	}
	if l := next(); !strings.HasPrefix(l, "ok   m/quick") {
		t.Fatalf("got %q, want m/quick's line", l)
	}
	clk.add(quietFor)
	ticks <- clk.now()
	if l := next(); !strings.Contains(l, "still testing") || !strings.Contains(l, "slow") {
		t.Fatalf("a tick while m/slow runs: got %q, want it named", l)
	}
	feed.Close()
	for lines.Scan() {
	}
}
