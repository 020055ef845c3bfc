package main_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/node/nodetest"
)

// calls has every process of c make rounds memref calls, one process
// after the other, with the reasons <tag>-p<proc>-<round>. It returns the
// reasons of the calls answered ok, and fails tb unless every
// process's last call was (the workspace works again).
func calls(tb testing.TB, c *nodetest.Cluster, wf, tag string, rounds int) map[string]bool {
	tb.Helper()
	acked := map[string]bool{}
	var last []string
	for r := range rounds {
		last = last[:0]
		for k, p := range c.Procs {
			reason := fmt.Sprintf("%s-p%d-%d", tag, k, r)
			res, isErr, err := memref(p, wf, reason)
			if err != nil || isErr {
				tb.Logf("%s: %v %v", reason, err, res)
				last = append(last, fmt.Sprintf("%s: %v %v (stderr: %s)", reason, err, res, p.Stderr()))
				continue
			}
			acked[reason] = true
		}
	}
	if len(last) > 0 {
		tb.Fatalf("the last round of %s calls failed: %s", tag, strings.Join(last, "\n"))
	}
	return acked
}

// memref makes one memref call through p with reason. Like an agent, it
// discovers the workflow again and calls again while the answer is that
// the workflow is unknown: a new ledger has ids of its own, published as
// its owner takes over.
func memref(p *nodetest.Proc, wf, reason string) (map[string]any, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		res, isErr, err := p.Client.Call(ctx, "memref", map[string]any{"refs": []any{
			map[string]any{"ruleId": wf, "constraintId": "Steps/1", "reason": reason}}})
		if err != nil || !isErr || res["code"] != "unknown_rule_or_workflow" || ctx.Err() != nil {
			return res, isErr, err
		}
		time.Sleep(20 * time.Millisecond)
		if res, isErr, err := p.Client.Call(ctx, "memdisc", map[string]any{"kind": "workflow"}); err == nil && !isErr {
			if items, _ := res["items"].([]any); len(items) > 0 {
				item, _ := items[0].(map[string]any)
				wf, _ = item["id"].(string)
			}
		}
	}
}

// checkLedger checks the ledger the workspace has now against the calls
// of each tag: every call answered ok is in it once, a call answered with
// an error is not in it; once says which tags' calls must all be there.
func checkLedger(tb testing.TB, dir string, acked map[string]map[string]bool, once ...string) {
	tb.Helper()
	seen := refReasons(tb, dir)
	for _, tag := range once {
		for r := range acked[tag] {
			if seen[r] != 1 {
				tb.Errorf("call %s was answered ok; the ledger holds it %d times, want once", r, seen[r])
			}
		}
	}
	for r, n := range seen {
		if n > 1 {
			tb.Errorf("call %s: %d times in the ledger", r, n)
		}
		tag, _, _ := strings.Cut(r, "-")
		if ok, made := acked[tag]; made && !ok[r] && contains(once, tag) {
			tb.Errorf("call %s was answered with an error but is in the ledger", r)
		}
	}
}

// gitClean removes the workspace's state folder as `git clean -fdX`
// does (state/ is git-ignored), with git when there is one.
func gitClean(tb testing.TB, dir string) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if err := os.RemoveAll(filepath.Join(dir, ".clumsies", "state")); err != nil {
			tb.Fatal(err)
		}
		return
	}
	git := func(args ...string) ([]byte, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		return cmd.CombinedOutput()
	}
	if out, err := git("init", "-q"); err != nil {
		tb.Fatalf("git init: %v: %s", err, out)
	}
	// The running owners notice the removal and one of them may make a
	// new state folder while git is still deleting the old one's files:
	// git then fails to remove a folder that is no longer empty, as it
	// would for a person running it. Like that person, run it again; the
	// old folder's files are gone after the first run.
	var out []byte
	var err error
	for range 5 {
		if out, err = git("clean", "-fdXq"); err == nil {
			break
		}
		tb.Logf("git clean: %v: %s (again)", err, out)
	}
	if err != nil {
		tb.Fatalf("git clean -fdX: %v: %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".clumsies", "state", "owner.lock")); err == nil {
		tb.Log("a new owner made a state folder already")
	}
}

// TestServe_StateFolderRemoved removes the state folder (git clean) while
// two or three serve processes run and the agents keep calling: the owner
// stops acknowledging into the deleted store and hands over, so every
// call answered ok afterwards is in the ledger the workspace then has,
// once, and no call answered with an error is. A serve started after the
// clean (a new agent window) cannot be a second owner beside one that
// still acknowledges: its calls and the others' land in one ledger.
func TestServe_StateFolderRemoved(t *testing.T) {
	for _, n := range []int{2, 3} {
		t.Run(fmt.Sprintf("%d processes", n), func(t *testing.T) {
			dir := newWorkspace(t)
			c := cluster(t, dir, n)
			wf := workflowID(t, c.Procs[0].Client)
			acked := map[string]map[string]bool{}
			acked["before"] = calls(t, c, wf, "before", 2)
			checkLedger(t, dir, acked, "before")

			gitClean(t, dir)
			acked["after"] = calls(t, c, wf, "after", 3)
			// A serve started after the clean (a new agent window).
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			_, err := c.Add(ctx)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			acked["later"] = calls(t, c, wf, "later", 2)
			checkLedger(t, dir, acked, "after", "later")
			for _, p := range c.Procs {
				if strings.Contains(p.Stderr(), "panic") {
					t.Errorf("serve %d: %s", p.Pid(), p.Stderr())
				}
			}
		})
	}
}

// TestServe_StateFolderMovedAndBack moves the state folder away while
// serve runs, and back later (in place of the one made meanwhile): at
// each step every call answered ok is in the ledger the workspace has
// then, once; no call goes into the folder while it is away.
func TestServe_StateFolderMovedAndBack(t *testing.T) {
	dir := newWorkspace(t)
	c := cluster(t, dir, 2)
	wf := workflowID(t, c.Procs[0].Client)
	state := filepath.Join(dir, ".clumsies", "state")
	acked := map[string]map[string]bool{}
	acked["before"] = calls(t, c, wf, "before", 2)

	if err := os.Rename(state, state+".away"); err != nil {
		t.Fatal(err)
	}
	acked["away"] = calls(t, c, wf, "away", 2)
	checkLedger(t, dir, acked, "away")

	// Back: the folder made meanwhile goes aside, the first one returns.
	if err := os.Rename(state, state+".meanwhile"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(state+".away", state); err != nil {
		t.Fatal(err)
	}
	acked["back"] = calls(t, c, wf, "back", 2)
	// An away call that the first owner appended into the folder while
	// it was away was answered after its retry through the new owner: it
	// may be here too, but once.
	checkLedger(t, dir, acked, "before", "back")
	mustRun(t, dir, "verify")
}

// TestServe_SharedStateFolder gives a second workspace the first's state
// folder through a symlink: its commands refuse the folder and say why,
// whether the first's serve runs or not, and the first's ledger and read
// models stay as they were (its verify passes).
func TestServe_SharedStateFolder(t *testing.T) {
	ws1, ws2 := newWorkspace(t), newWorkspace(t)
	c := cluster(t, ws1, 1)
	wf := workflowID(t, c.Procs[0].Client)
	acked := map[string]map[string]bool{"one": calls(t, c, wf, "one", 3)}
	state2 := filepath.Join(ws2, ".clumsies", "state")
	if err := os.RemoveAll(state2); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ws1, ".clumsies", "state"), state2); err != nil {
		t.Fatal(err)
	}
	refused := func(args ...string) {
		t.Helper()
		r := run(t, ws2, args...)
		if r.code == 0 || !strings.Contains(r.stderr, "is the state folder of workspace") {
			t.Fatalf("clumsies %s in the second workspace: exit %d, stderr %q; want a refusal naming the other workspace", strings.Join(args, " "), r.code, r.stderr)
		}
	}
	refused("stats") // while the first's serve owns the folder
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	refused("stats")
	refused("rebuild")
	serve := exec.Command(binary, "serve", "--workspace", ws2)
	serve.Stdin = strings.NewReader("")
	var stderr strings.Builder
	serve.Stderr = &stderr
	if err := serve.Run(); err == nil || !strings.Contains(stderr.String(), "is the state folder of workspace") {
		t.Fatalf("serve in the second workspace: %v, stderr %q; want a refusal", err, stderr.String())
	}
	checkLedger(t, ws1, acked, "one")
	mustRun(t, ws1, "verify")
}
