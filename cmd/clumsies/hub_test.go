package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// hubProcess runs `clumsies hub serve` on a hub folder.
type hubProcess struct {
	dir, api string
	cmd      *exec.Cmd
	// logLevel is serve's --log-level; "" is warn.
	logLevel string
	// env is added to serve's environment.
	env []string
	// said is what serve wrote on stderr.
	said *syncWriter
}

// newHub runs `clumsies hub init` with free loopback ports and starts
// `clumsies hub serve`.
func newHub(tb testing.TB) *hubProcess {
	tb.Helper()
	return newHubAt(tb, "")
}

// newHubAt is newHub with serve's --log-level ("" is warn).
func newHubAt(tb testing.TB, logLevel string) *hubProcess {
	tb.Helper()
	dir := tb.TempDir()
	leaf, api := freeAddr(tb), freeAddr(tb)
	mustRun(tb, dir, "hub", "init", "--leaf", leaf, "--http", api, "--name", "e2e")
	hp := &hubProcess{dir: dir, api: "http://" + api, logLevel: logLevel}
	hp.start(tb)
	tb.Cleanup(hp.stop)
	return hp
}

func (hp *hubProcess) start(tb testing.TB) {
	tb.Helper()
	if err := hp.tryStart(); err != nil {
		tb.Fatal(err)
	}
}

// tryStart starts `clumsies hub serve` and waits until it serves. It may be
// called from any goroutine; its error quotes what the hub said.
func (hp *hubProcess) tryStart() error {
	level := hp.logLevel
	if level == "" {
		level = "warn"
	}
	cmd := exec.Command(binary, "hub", "serve", "--hub", hp.dir, "--log-level", level)
	cmd.Env = append(os.Environ(), hp.env...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		return err
	}
	ready := make(chan bool, 1)
	var said syncWriter
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "serving") {
				ready <- true
			}
			said.Write([]byte(sc.Text() + "\n"))
			if os.Getenv("HUB_TEST_LOG") != "" {
				os.Stderr.WriteString("hub: " + sc.Text() + "\n")
			}
		}
		close(ready)
	}()
	select {
	case ok := <-ready:
		if !ok {
			cmd.Wait()
			return fmt.Errorf("clumsies hub serve exited before serving:\n%s", said.String())
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		cmd.Wait()
		return fmt.Errorf("clumsies hub serve did not start within a minute:\n%s", said.String())
	}
	hp.cmd, hp.said = cmd, &said
	return nil
}

func (hp *hubProcess) stop() {
	if hp.cmd != nil {
		hp.cmd.Process.Signal(os.Interrupt)
		hp.cmd.Wait()
		hp.cmd = nil
	}
}

// join invites the workspace in dir into team and joins it.
func (hp *hubProcess) join(tb testing.TB, dir, team, member string) string {
	tb.Helper()
	ws := workspaceID(tb, dir)
	token := strings.TrimSpace(mustRun(tb, hp.dir, "hub", "invite", "--workspace", ws, "--team", team, "--member", member))
	var out struct{ NodeID string }
	if err := json.Unmarshal([]byte(mustRun(tb, dir, "hub", "join", token, "--json")), &out); err != nil {
		tb.Fatal(err)
	}
	return out.NodeID
}

func workspaceID(tb testing.TB, dir string) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".clumsies", "config.toml"))
	if err != nil {
		tb.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "workspace_id = "); ok {
			return strings.Trim(v, `"`)
		}
	}
	tb.Fatalf("no workspace_id in %s", b)
	return ""
}

// hubTotals is the part of `clumsies hub stats --json` the tests compare.
type hubTotals struct {
	Totals struct {
		Events, Refs, Sessions uint64
		Nodes, Workspaces      int
	}
	Rules []struct {
		ID, WorkspaceID string
		Refs            uint64
		Constraints     []struct {
			ID   string
			Refs uint64
		}
	}
	Applied uint64
}

func hubStats(tb testing.TB, hp *hubProcess, args ...string) hubTotals {
	tb.Helper()
	var st hubTotals
	out := mustRun(tb, hp.dir, append([]string{"hub", "stats", "--json"}, args...)...)
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		tb.Fatalf("%v: %s", err, out)
	}
	return st
}

// agentSession serves dir, runs a short agent session (setup, load, n
// refs) and stops serving.
func agentSession(tb testing.TB, dir, session string, n int) {
	tb.Helper()
	cmd, cl := serve(tb, dir)
	setup(tb, cl, session)
	wf := workflowID(tb, cl)
	call(tb, cl, "memload", map[string]any{"ids": []string{wf}, "knownHashes": map[string]any{wf: ""}})
	for range n {
		call(tb, cl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": wf, "constraintId": "Steps/1"}}})
	}
	cl.Close()
	cmd.Wait()
}

// TestHub_EndToEnd joins two workspaces and a second clone of one of them
// to a hub through the command line, has agents call tools in each, and
// checks that the hub's stats are the sum of the workspaces' own, also
// after the hub was down while agents went on working.
func TestHub_EndToEnd(t *testing.T) {
	hp := newHub(t)
	a := newWorkspace(t)
	aClone := copyWorkspace(t, a)
	b := newWorkspace(t)
	nodes := map[string]bool{}
	for _, j := range []struct{ dir, team, member string }{{a, "red", "ann"}, {aClone, "red", "bob"}, {b, "blue", "cy"}} {
		nodes[hp.join(t, j.dir, j.team, j.member)] = true
	}
	if len(nodes) != 3 {
		t.Fatalf("got %d distinct node ids, want 3", len(nodes))
	}
	agentSession(t, a, "sess-a1", 3)
	agentSession(t, aClone, "sess-a2", 2)
	agentSession(t, b, "sess-b1", 4)

	hp.stop() // agents go on while the hub is down
	agentSession(t, a, "sess-a3", 5)
	agentSession(t, b, "sess-b2", 1)
	hp.start(t)

	// The workspaces link again when their owners start: keep one owner
	// of each clone up while the hub catches up.
	for _, dir := range []string{a, aClone, b} {
		serve(t, dir)
	}
	var want struct{ events, refs, sessions uint64 }
	for _, dir := range []string{a, aClone, b} {
		st := readStats(t, dir)
		var ev struct{ Events, Sessions uint64 }
		json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &ev)
		want.events += ev.Events
		want.sessions += ev.Sessions
		for _, r := range st.Rules {
			want.refs += uint64(r.Refs)
		}
	}
	deadline := time.Now().Add(time.Minute)
	var got hubTotals
	for {
		got = hubStats(t, hp)
		if got.Totals.Events >= want.events || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if got.Totals.Events != want.events || got.Totals.Refs != want.refs || got.Totals.Sessions != want.sessions {
		t.Fatalf("hub totals: events %d, refs %d, sessions %d; sum of the workspaces: events %d, refs %d, sessions %d",
			got.Totals.Events, got.Totals.Refs, got.Totals.Sessions, want.events, want.refs, want.sessions)
	}
	if got.Totals.Nodes != 3 || got.Totals.Workspaces != 2 {
		t.Fatalf("hub counts %d nodes and %d workspaces, want 3 and 2", got.Totals.Nodes, got.Totals.Workspaces)
	}
	if got.Totals.Refs != 3+2+4+5+1 {
		t.Fatalf("hub counts %d refs, want 15", got.Totals.Refs)
	}

	var status struct {
		Linked           bool
		HubSeq, LocalSeq uint64
	}
	json.Unmarshal([]byte(mustRun(t, a, "hub", "status", "--json")), &status)
	if !status.Linked || status.HubSeq != status.LocalSeq {
		t.Fatalf("hub status of a: %+v, want linked and caught up", status)
	}

	var listed []struct {
		ID      string
		Revoked string
		Link    struct{ Up bool }
	}
	json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "nodes", "--json")), &listed)
	if len(listed) != 3 {
		t.Fatalf("hub nodes lists %d nodes, want 3", len(listed))
	}
	for _, n := range listed {
		if !n.Link.Up {
			t.Fatalf("hub nodes shows node %s down while its owner serves", n.ID)
		}
	}

	// A member token of team blue sees blue only.
	token := strings.TrimSpace(mustRun(t, hp.dir, "hub", "token", "--name", "cy", "--team", "blue"))
	tokenFile := filepath.Join(t.TempDir(), "member.token")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	blue := hubStats(t, hp, "--url", hp.api, "--token-file", tokenFile)
	if blue.Totals.Workspaces != 1 || blue.Totals.Refs != 4+1 {
		t.Fatalf("team blue's member sees %d workspaces and %d refs, want 1 and 5", blue.Totals.Workspaces, blue.Totals.Refs)
	}
	r := run(t, hp.dir, "hub", "stats", "--url", hp.api, "--token", token, "--team", "red")
	if r.code == 0 || !strings.Contains(r.stderr, "may not read team") || !strings.Contains(r.stderr, "process list") {
		t.Fatalf("a blue member read team red, or --token gave no warning: exit %d, %s", r.code, r.stderr)
	}
	_, err := hp.client(token).Nodes(context.Background())
	wantRefused(t, err, hubwire.CodeUnauthorized, "a member token listed the nodes")
}

// client returns a client of hp's API that sends token.
func (hp *hubProcess) client(token string) *hubwire.Client { return hubwire.NewClient(hp.api, token) }

// wantRefused fails tb unless err is the hub's refusal with code.
func wantRefused(tb testing.TB, err error, code, what string) {
	tb.Helper()
	if got := hubwire.CodeOf(err); got != code {
		tb.Fatalf("%s: %v (code %q), want the hub's %s", what, err, got, code)
	}
}

func httpGet(tb testing.TB, url, token string) int {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestHub_CLIBadInput checks that the hub commands refuse bad input with
// an error that says what to do, and change nothing.
func TestHub_CLIBadInput(t *testing.T) {
	hp := newHub(t)
	ws := newWorkspace(t)
	for _, c := range []struct {
		dir  string
		args []string
		want string
	}{
		{ws, []string{"hub", "join", "not-a-token"}, "copy the whole token"},
		{ws, []string{"hub", "join", "clj1.bm9wZQ"}, "damaged"},
		{ws, []string{"hub", "join"}, "needs the join token"},
		{ws, []string{"hub", "status"}, "has not joined a hub"},
		{hp.dir, []string{"hub", "invite", "--team", "red"}, "needs --workspace"},
		{hp.dir, []string{"hub", "invite", "--workspace", "nope", "--team", "red"}, "not a workspace id"},
		{hp.dir, []string{"hub", "nodes", "extra"}, "unexpected argument"},
		{hp.dir, []string{"hub", "stats", "--period", "hourly"}, "daily, weekly or monthly"},
		{hp.dir, []string{"hub", "revoke", "n-0000000000000000"}, "unknown node"},
		{t.TempDir(), []string{"hub", "nodes"}, "which hub?"},
		{hp.dir, []string{"hub", "bogus"}, "unknown hub command"},
		{hp.dir, []string{"hub", "init", hp.dir}, "exists"},
	} {
		r := run(t, c.dir, c.args...)
		if r.code == 0 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("clumsies %s: exit %d, stderr %q; want a failure saying %q", strings.Join(c.args, " "), r.code, r.stderr, c.want)
		}
		if strings.Contains(r.stderr, "hub: hub:") {
			t.Errorf("clumsies %s: stderr %q names the hub twice", strings.Join(c.args, " "), r.stderr)
		}
	}
	for _, args := range [][]string{{"hub", "-h"}, {"hub", "catalog", "-h"}, {"hub", "review", "--help"}, {"hub", "catalog", "push", "-h"}, {"hub", "review", "list", "-h"}} {
		if r := run(t, hp.dir, args...); r.code != 0 || r.stdout+r.stderr == "" || !strings.Contains(r.stdout+r.stderr, "Usage: clumsies hub") {
			t.Errorf("clumsies %s: exit %d, stdout %q, stderr %q; want its help and exit 0", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
	// A used token is refused the second time.
	token := strings.TrimSpace(mustRun(t, hp.dir, "hub", "invite", "--workspace", workspaceID(t, ws), "--team", "red"))
	mustRun(t, ws, "hub", "join", token)
	clone := copyWorkspace(t, ws)
	if r := run(t, clone, "hub", "join", token); r.code == 0 || !strings.Contains(r.stderr, "already used") {
		t.Fatalf("a used join token: exit %d, %q", r.code, r.stderr)
	}
	if r := run(t, ws, "hub", "join", token); r.code == 0 || !strings.Contains(r.stderr, "already joined") {
		t.Fatalf("joining twice: exit %d, %q", r.code, r.stderr)
	}
}
