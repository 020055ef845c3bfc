package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// ev is one line of go test -json.
func ev(action, pkg, test, output string, elapsed float64) string {
	return fmt.Sprintf(`{"Action":%q,"Package":%q,"Test":%q,"Output":%q,"Elapsed":%v}`, action, pkg, test, output, elapsed) + "\n"
}

// lineReader returns a function that reads the next line of lines,
// failing tb when none comes within a minute.
func lineReader(tb testing.TB, lines *bufio.Scanner) func() string {
	return func() string {
		tb.Helper()
		got := make(chan string, 1)
		go func() {
			if lines.Scan() {
				got <- lines.Text()
			}
			close(got)
		}()
		select {
		case l := <-got:
			return l
		case <-time.After(time.Minute):
			tb.Fatal("no line within a minute")
			return ""
		}
	}
}

// TestRun_PrintsEachPackageAsItEnds feeds the events of two packages, the
// second ending first, through a pipe: each package's line comes out as
// soon as its end is read, before the input ends.
func TestRun_PrintsEachPackageAsItEnds(t *testing.T) {
	in, feed := io.Pipe()
	outR, outW := io.Pipe()
	status := make(chan int, 1)
	go func() {
		status <- run(in, outW, time.Now)
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	next := lineReader(t, lines)
	write := func(s string) {
		if _, err := io.WriteString(feed, s); err != nil {
			t.Fatal(err)
		}
	}

	write(ev("start", "m/slow", "", "", 0) + ev("start", "m/quick", "", "", 0))
	write(ev("run", "m/quick", "TestA", "", 0) + ev("output", "m/quick", "TestA", "=== RUN TestA\n", 0) + ev("pass", "m/quick", "TestA", "", 0.1))
	write(ev("pass", "m/quick", "", "", 0.2))
	if l := next(); !strings.HasPrefix(l, "ok   m/quick") || !strings.Contains(l, "running: slow") {
		t.Fatalf("got %q, want m/quick ok while m/slow still runs", l)
	}
	write(ev("output", "m/slow", "TestC", "quiet\n", 0) + ev("pass", "m/slow", "TestC", "", 1))
	write(ev("output", "m/slow", "TestB", "boom\n", 0) + ev("fail", "m/slow", "TestB", "", 3) + ev("fail", "m/slow", "", "", 3.5))
	if l := next(); !strings.HasPrefix(l, "FAIL m/slow") {
		t.Fatalf("got %q, want m/slow failed", l)
	}
	if l := next(); strings.TrimSpace(l) != "boom" {
		t.Fatalf("got %q, want the failed test's output (and not the passed one's)", l)
	}
	feed.Close()
	var rest []string
	for lines.Scan() {
		rest = append(rest, lines.Text())
	}
	if got := <-status; got != 1 || !strings.Contains(strings.Join(rest, "\n"), "1 packages ok, 1 FAILED") {
		t.Fatalf("got status %d and summary %q, want 1 and one package failed", got, rest)
	}
}

// TestRun_Status: a run where every package passes exits 0; one that
// reports no package exits 1, as does one whose package did not build.
func TestRun_Status(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     int
	}{
		{"AllPass", ev("start", "m/a", "", "", 0) + ev("pass", "m/a", "", "", 1), 0},
		{"Nothing", "", 1},
		{"BuildFailed", `{"ImportPath":"m/b [m/b.test]","Action":"build-output","Output":"b.go:1: syntax error\n"}` + "\n" +
			ev("start", "m/b", "", "", 0) + ev("output", "m/b", "", "FAIL\tm/b [build failed]\n", 0) + ev("fail", "m/b", "", "", 0), 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			if got := run(strings.NewReader(c.in), &out, time.Now); got != c.want {
				t.Fatalf("got status %d, want %d; printed:\n%s", got, c.want, out.String())
			}
		})
	}
}
