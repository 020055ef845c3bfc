package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestCLI_SecondProcess runs the command line on a workspace that a
// `clumsies serve` owns: every command works through the owner, and
// `events --follow` keeps printing new events, across an owner change too.
func TestCLI_SecondProcess(t *testing.T) {
	dir := newWorkspace(t)
	owner, cl := serve(t, dir)
	setup(t, cl, "owner-session")

	var st struct{ Events int }
	if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &st); err != nil || st.Events != 4 {
		t.Fatalf("stats while served: got %+v, %v; want 4 events (3 published, 1 memsetup)", st, err)
	}
	if evs := eventLines(t, dir); len(evs) != 4 {
		t.Fatalf("events while served: got %d, want 4", len(evs))
	}
	if out := mustRun(t, dir, "publish"); !strings.Contains(out, "Nothing to publish") {
		t.Fatalf("publish while served: got %q, want nothing to publish", out)
	}
	if out := mustRun(t, dir, "verify"); !strings.Contains(out, "ok:") {
		t.Fatalf("verify while served: %q", out)
	}
	digest := digestOf(t, mustRun(t, dir, "rebuild"))
	if again := digestOf(t, mustRun(t, dir, "rebuild")); again != digest {
		t.Fatalf("rebuild through the owner: digests %s then %s", digest, again)
	}
	// The owner's agent carries on after the rebuilds.
	call(t, cl, "agentreport", map[string]any{"summary": "after the rebuilds"})

	follow, lines := followEvents(t, dir)
	for i := 1; i <= 5; i++ {
		ev := nextLine(t, lines)
		if ev["seq"] != float64(i) {
			t.Fatalf("events --follow: got %v, want seq %d", ev, i)
		}
	}
	call(t, cl, "agentreport", map[string]any{"summary": "seen by the follower"})
	if ev := nextLine(t, lines); ev["type"] != "attest.agent_report" || ev["seq"] != float64(6) {
		t.Fatalf("events --follow: got %v, want the new report at seq 6", ev)
	}

	// The owner dies; the follower takes the workspace over, and a new
	// serve works through it.
	owner.Process.Kill()
	cl.Close()
	_, cl2 := serve(t, dir)
	setup(t, cl2, "second-session")
	call(t, cl2, "agentreport", map[string]any{"summary": "after the owner died"})
	for _, want := range []string{"attest.setup", "attest.agent_report"} {
		if ev := nextLine(t, lines); ev["type"] != want {
			t.Fatalf("events --follow after the owner died: got %v, want %s", ev, want)
		}
	}
	cl2.Close()
	follow.Process.Signal(os.Interrupt)
	if err := follow.Wait(); err != nil {
		t.Fatalf("events --follow did not end cleanly: %v", err)
	}
	// 8 recorded events, and the checkpoint of a serve that owned the
	// workspace when it stopped, if one did.
	if evs := eventLines(t, dir); len(evs) != 8 && (len(evs) != 9 || evs[8]["type"] != "ledger.checkpoint") {
		t.Fatalf("after the test: got %d events, want 8 (and maybe a checkpoint)", len(evs))
	}
	if out := mustRun(t, dir, "verify"); !strings.Contains(out, "ok:") {
		t.Fatalf("verify at the end: %q", out)
	}
}

// followEvents starts `clumsies events --follow --json` and returns its
// lines as they come.
func followEvents(tb testing.TB, dir string) (*exec.Cmd, <-chan map[string]any) {
	tb.Helper()
	cmd := exec.Command(binary, "events", "--follow", "--json")
	cmd.Dir = dir
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cmd.Process.Kill() })
	lines := make(chan map[string]any, 100)
	go func() {
		defer close(lines)
		readLines(stdout, lines)
	}()
	return cmd, lines
}

func readLines(r io.Reader, out chan<- map[string]any) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev map[string]any
		if json.Unmarshal(sc.Bytes(), &ev) == nil {
			out <- ev
		}
	}
}

func nextLine(tb testing.TB, lines <-chan map[string]any) map[string]any {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	select {
	case ev, ok := <-lines:
		if !ok {
			tb.Fatal("events --follow ended")
		}
		return ev
	case <-ctx.Done():
		tb.Fatal("events --follow printed nothing within 20s")
	}
	return nil
}
