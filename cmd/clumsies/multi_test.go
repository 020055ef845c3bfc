package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clumsies/clumsies/node/nodetest"
)

// cluster starts n `clumsies serve` processes on dir, each bound to its
// own session, and stops them at the end of the test.
func cluster(tb testing.TB, dir string, n int) *nodetest.Cluster {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := nodetest.Start(ctx, binary, dir, n)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		for _, p := range c.Procs {
			p.Cmd.Process.Kill()
		}
		c.Close()
	})
	return c
}

// burst has every process make calls memref calls at once, two at a time,
// each with the unique reason p<proc>-<i>. It returns the reasons of the
// acknowledged calls and the errors of each process.
func burst(c *nodetest.Cluster, wf string, calls int, after func(acked int)) (acked map[string]bool, errs [][]error) {
	var mu sync.Mutex
	acked = map[string]bool{}
	errs = make([][]error, len(c.Procs))
	var wg sync.WaitGroup
	for k, p := range c.Procs {
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < calls; i += 2 {
					reason := fmt.Sprintf("p%d-%d", k, i)
					ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
					res, isErr, err := p.Client.Call(ctx, "memref", map[string]any{"refs": []any{
						map[string]any{"ruleId": wf, "constraintId": "Steps/1", "reason": reason}}})
					cancel()
					mu.Lock()
					if err != nil || isErr {
						errs[k] = append(errs[k], fmt.Errorf("%s: %v %v", reason, err, res))
					} else {
						acked[reason] = true
					}
					n := len(acked)
					mu.Unlock()
					if err != nil {
						return // the process is gone
					}
					if after != nil {
						after(n)
					}
				}
			}()
		}
	}
	wg.Wait()
	return acked, errs
}

// refReasons returns how often each memref reason is in the ledger, among
// the ok attest.refer events.
func refReasons(tb testing.TB, dir string) map[string]int {
	tb.Helper()
	seen := map[string]int{}
	for _, ev := range eventLines(tb, dir, "--type", "attest.refer") {
		if ev["outcome"] != "ok" {
			continue
		}
		var data struct{ Refs []struct{ Reason string } }
		b, _ := json.Marshal(ev["data"])
		json.Unmarshal(b, &data)
		for _, r := range data.Refs {
			seen[r.Reason]++
		}
	}
	return seen
}

type usageStats struct {
	Rules []struct {
		ID          string
		Refs        int
		Constraints []struct {
			ID   string
			Refs int
		}
	}
	SessionList []struct {
		ID    string
		Calls int
		Refs  int
	}
}

func readStats(tb testing.TB, dir string) usageStats {
	tb.Helper()
	var st usageStats
	if err := json.Unmarshal([]byte(mustRun(tb, dir, "stats", "--json")), &st); err != nil {
		tb.Fatal(err)
	}
	return st
}

// refsOf returns the refs of rule id and of its constraint cid.
func (st usageStats) refsOf(id, cid string) (rule, constraint int) {
	for _, r := range st.Rules {
		if r.ID != id {
			continue
		}
		for _, c := range r.Constraints {
			if c.ID == cid {
				constraint = c.Refs
			}
		}
		return r.Refs, constraint
	}
	return 0, 0
}

// callsPerSession counts the tool events of each session in the ledger.
func callsPerSession(tb testing.TB, dir string) map[string]int {
	tb.Helper()
	out := map[string]int{}
	for _, ev := range eventLines(tb, dir) {
		if s, _ := ev["sessionId"].(string); s != "" && ev["tool"] != nil {
			out[s]++
		}
	}
	return out
}

// TestServe_ManyProcesses runs four `clumsies serve` on one workspace, each
// making 500 memref calls at the same time as the others, and checks that
// the ledger and the usage counts hold every call exactly once.
func TestServe_ManyProcesses(t *testing.T) {
	dir := newWorkspace(t)
	c := cluster(t, dir, 4)
	wfs := make([]string, len(c.Procs))
	for k, p := range c.Procs {
		wfs[k] = workflowID(t, p.Client)
		if wfs[k] != wfs[0] {
			t.Fatalf("process %d found workflow %s, process 0 %s", k, wfs[k], wfs[0])
		}
	}
	const calls = 500
	acked, errs := burst(c, wfs[0], calls, nil)
	for k, e := range errs {
		if len(e) > 0 {
			t.Fatalf("process %d: %d calls failed, first: %v", k, len(e), e[0])
		}
	}
	sessions := map[string]bool{}
	for _, p := range c.Procs {
		sessions[p.Session] = true
	}
	total := len(c.Procs) * calls
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	if total != 2000 || len(acked) != total {
		t.Fatalf("acknowledged %d calls, want %d", len(acked), total)
	}
	st := readStats(t, dir)
	if rule, con := st.refsOf(wfs[0], "Steps/1"); rule != total || con != total {
		t.Fatalf("stats: %d refs of the workflow and %d of Steps/1, want %d each", rule, con, total)
	}
	reasons := refReasons(t, dir)
	for r := range acked {
		if reasons[r] != 1 {
			t.Errorf("call %s: stored %d times, want once", r, reasons[r])
		}
	}
	if len(reasons) != total {
		t.Fatalf("ledger: %d distinct ok refer events, want %d", len(reasons), total)
	}
	// One memsetup, one memdisc and the memref calls per session: exactly
	// the calls made, in the ledger and in the stats.
	perSession := callsPerSession(t, dir)
	for s := range sessions {
		if perSession[s] != calls+2 {
			t.Errorf("session %s: %d events in the ledger, want %d", s, perSession[s], calls+2)
		}
	}
	if len(perSession) != len(sessions) {
		t.Errorf("ledger has the sessions %v, want %v", perSession, sessions)
	}
	for _, s := range st.SessionList {
		if s.Calls != calls+2 || s.Refs != calls {
			t.Errorf("stats of session %s: %d calls and %d refs, want %d and %d", s.ID, s.Calls, s.Refs, calls+2, calls)
		}
	}
	if out := mustRun(t, dir, "verify"); !strings.Contains(out, "ok:") {
		t.Fatalf("verify: %s", out)
	}
}

// TestServe_OwnerKilledDuringBurst kills the owning `clumsies serve` with
// SIGKILL in the middle of a burst from four processes: the other three
// finish every call without an error, and every acknowledged call is in
// the ledger exactly once.
func TestServe_OwnerKilledDuringBurst(t *testing.T) {
	dir := newWorkspace(t)
	c := cluster(t, dir, 4)
	wf := workflowID(t, c.Procs[0].Client)
	victim, err := c.Owner()
	if err != nil {
		t.Fatal(err)
	}
	killAt := 600
	var once sync.Once
	killed := make(chan struct{})
	const calls = 500
	acked, errs := burst(c, wf, calls, func(n int) {
		if n >= killAt {
			once.Do(func() {
				victim.Cmd.Process.Kill()
				close(killed)
			})
		}
	})
	select {
	case <-killed:
	default:
		t.Fatal("the burst ended before the kill")
	}
	victimAcked := 0
	for k, p := range c.Procs {
		if p == victim {
			for r := range acked {
				if strings.HasPrefix(r, fmt.Sprintf("p%d-", k)) {
					victimAcked++
				}
			}
			continue
		}
		if len(errs[k]) > 0 {
			t.Errorf("survivor %d (pid %d): %d calls failed, first: %v\nstderr: %s", k, p.Pid(), len(errs[k]), errs[k][0], p.Stderr())
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	if err := c.Kill(victim); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	if want := 3*calls + victimAcked; len(acked) != want {
		t.Fatalf("acknowledged %d calls, want %d (3 x %d + %d of the killed owner)", len(acked), want, calls, victimAcked)
	}
	reasons := refReasons(t, dir)
	for r := range acked {
		if reasons[r] != 1 {
			t.Errorf("acknowledged call %s: stored %d times, want once", r, reasons[r])
		}
	}
	stored := 0
	for r, n := range reasons {
		if n != 1 {
			t.Errorf("call %s stored %d times", r, n)
		}
		stored += n
	}
	if out := mustRun(t, dir, "verify"); !strings.Contains(out, "ok:") {
		t.Fatalf("verify after the kill: %s", out)
	}
	if rule, con := readStats(t, dir).refsOf(wf, "Steps/1"); rule != stored || con != stored {
		t.Fatalf("stats: %d refs of the workflow and %d of Steps/1, want %d each (one per stored event)", rule, con, stored)
	}
	t.Logf("killed the owner after %d acknowledged calls (%d of its own); %d acknowledged, %d stored", killAt, victimAcked, len(acked), stored)
}

// TestServe_Takeover kills the owner of three `clumsies serve` twice, as
// `make bench` does ten times, and checks that a survivor answers each
// time. Times are logged, not asserted.
func TestServe_Takeover(t *testing.T) {
	dir := newWorkspace(t)
	c := cluster(t, dir, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for i := 0; i < 2; i++ {
		took, err := c.Takeover(ctx)
		if err != nil {
			t.Fatalf("takeover %d: %v", i, err)
		}
		if took <= 0 {
			t.Fatalf("takeover %d: got %s", i, took)
		}
		t.Logf("takeover %d: %s from SIGKILL to a survivor's answer", i, took)
	}
	// An owner that ends normally (its agent closes stdin) exits at once,
	// whoever is connected to it, and the others carry on.
	owner, err := c.Owner()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(owner); err != nil {
		t.Fatalf("stop the owner: %v", err)
	}
	for _, p := range c.Procs {
		call(t, p.Client, "memdisc", map[string]any{})
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if out := mustRun(t, dir, "verify"); !strings.Contains(out, "ok:") {
		t.Fatalf("verify after the takeovers: %s", out)
	}
}
