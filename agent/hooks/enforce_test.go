package hooks_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/agent/hooks"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/workspace"
)

// enforced is a workspace in [enforce] mode with one rule applying to
// src/api/**, and a file there; hooks run in it as Claude Code's.
type enforced struct {
	t    *testing.T
	ws   *workspace.Workspace
	root string
}

func newEnforced(t *testing.T, mode string) *enforced {
	t.Helper()
	return newEnforcedTable(t, "mode = \""+mode+"\"\n")
}

// newEnforcedTable is newEnforced with the [enforce] table's body as
// given.
func newEnforcedTable(t *testing.T, table string) *enforced {
	t.Helper()
	ws, _, err := workspace.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &enforced{t: t, ws: ws, root: ws.Root}
	cfg := filepath.Join(ws.MetaDir(), "config.toml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.write(".clumsies/config.toml", string(b)+"\n[enforce]\n"+table)
	e.write(".clumsies/rules/api/HANDLERS.md", "---\npaths: [\"src/api/**\"]\n---\n# Handlers\n\n## Errors\n\n- Wrap them.\n")
	e.write("src/api/x.go", "package api\n")
	if e.ws, err = workspace.Open(ws.Root); err != nil {
		t.Fatal(err)
	}
	e.run(adapt.SessionStart, map[string]any{"source": "startup"})
	return e
}

func (e *enforced) write(rel, body string) {
	e.t.Helper()
	p := filepath.Join(e.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// run runs hook ev of Claude Code with the fields of in (session and
// folder set) and returns its outcome.
func (e *enforced) run(ev adapt.Event, in map[string]any) hooks.Outcome {
	e.t.Helper()
	return e.runAs("claude-code", ev, in)
}

func (e *enforced) runAs(host string, ev adapt.Event, in map[string]any) hooks.Outcome {
	e.t.Helper()
	full := map[string]any{"session_id": sessionID, "cwd": e.root}
	for k, v := range in {
		full[k] = v
	}
	raw, _ := json.Marshal(full)
	h, err := adapt.Lookup(host)
	if err != nil {
		e.t.Fatal(err)
	}
	out, err := hooks.Handle(context.Background(), hooks.Request{Host: h, Event: ev, Input: raw})
	if err != nil {
		e.t.Fatalf("hook %s: %v", ev, err)
	}
	return out
}

func bash(cmd string) map[string]any {
	return map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}}
}

func write(file string) map[string]any {
	return map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": file, "content": "x"}}
}

// events returns the payloads of the ledger's events of type t.
func (e *enforced) events(t events.Type) []map[string]any {
	e.t.Helper()
	hd := e.attach()
	defer hd.Close()
	var out []map[string]any
	err := hd.Replay(context.Background(), 1, func(ev events.Event) error {
		if ev.Type == t {
			var m map[string]any
			if err := json.Unmarshal(ev.Data, &m); err != nil {
				return err
			}
			out = append(out, m)
		}
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

func (e *enforced) attach() *node.Handle {
	e.t.Helper()
	hd, err := node.Attach(context.Background(), e.ws, node.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	return hd
}

// load records that the session loaded every published rule, as memload
// does, with the hash each has now.
func (e *enforced) load() {
	e.t.Helper()
	hd := e.attach()
	defer hd.Close()
	ctx := context.Background()
	if _, err := hd.Publish(ctx); err != nil {
		e.t.Fatal(err)
	}
	items, err := hd.List(ctx, projections.Filter{})
	if err != nil {
		e.t.Fatal(err)
	}
	var data events.LoadData
	for _, it := range items {
		data.Items = append(data.Items, events.LoadedItem{ID: it.ID, Hash: it.Hash, Changed: true})
	}
	ev, err := events.New(e.ws.ID(), events.TypeLoad, data)
	if err != nil {
		e.t.Fatal(err)
	}
	ev.SessionID = sessionID
	if err := hd.Record(ctx, ev); err != nil {
		e.t.Fatal(err)
	}
}

// A shell command that writes an in-scope file is gated like an edit
// tool: every way of writing that a plain reading finds is denied before
// it runs, and a command that writes nothing in scope runs.
func TestPreTool_ShellWritesAreGated(t *testing.T) {
	e := newEnforced(t, "block")
	for _, cmd := range []string{
		"echo x >> src/api/x.go",
		"cat > src/api/new.go <<'EOF'\npackage api\nEOF",
		"sed -i 's/api/apis/' src/api/x.go",
		"cd src && printf y > api/x.go",
		"bash -c 'tee src/api/x.go < /dev/null'",
		"cp /tmp/y src/api/x.go",
		"git checkout -- src/api/x.go",
		"rm -rf src",
		"rm src/api/*.go",
	} {
		out := e.run(adapt.PreTool, bash(cmd))
		if !out.Answer.Block || !strings.Contains(out.Answer.Reason, "memload") {
			t.Errorf("%q: got %+v, want a deny naming memload", cmd, out.Answer)
		}
	}
	for _, cmd := range []string{"ls src/api", "cat src/api/x.go", "echo hi > notes.txt", "go test ./..."} {
		if out := e.run(adapt.PreTool, bash(cmd)); out.Answer.Block {
			t.Errorf("%q: denied (%s), want it to run", cmd, out.Answer.Reason)
		}
	}
	gated := e.events(events.TypeToolGated)
	if len(gated) != 9 || gated[0]["shell"] != true || gated[0]["tool"] != "Bash" {
		t.Fatalf("got %d attest.tool_gated (%v), want 9 with shell set", len(gated), gated)
	}
	e.load()
	if out := e.run(adapt.PreTool, bash("echo x >> src/api/x.go")); out.Answer.Block {
		t.Fatalf("after the load: denied (%s)", out.Answer.Reason)
	}
}

// The gate protects itself: in block mode an agent cannot edit
// config.toml, a rule or the hooks' wiring, even with every rule loaded;
// the denial says to propose the change with artifact.
func TestPreTool_ProtectedFiles(t *testing.T) {
	e := newEnforced(t, "block")
	e.load()
	for _, in := range []map[string]any{
		write(filepath.Join(e.root, ".clumsies", "config.toml")),
		write(filepath.Join(e.root, ".clumsies", "rules", "api", "HANDLERS.md")),
		write(filepath.Join(e.root, ".claude", "settings.json")),
		bash(`sed -i 's/block/off/' .clumsies/config.toml`),
	} {
		out := e.run(adapt.PreTool, in)
		if !out.Answer.Block || !strings.Contains(out.Answer.Reason, "artifact") {
			t.Errorf("%v: got %+v, want a deny that points to artifact", in, out.Answer)
		}
	}
	if out := e.run(adapt.PreTool, write(filepath.Join(e.root, ".clumsies", "state", "x"))); out.Answer.Block {
		t.Errorf("the state folder is not the enforcement's: denied %q", out.Answer.Reason)
	}
}

// A path through a symbolic link is gated and recorded by its real place.
func TestPreTool_SymlinkIsResolved(t *testing.T) {
	e := newEnforced(t, "block")
	if err := os.Symlink(filepath.Join(e.root, "src", "api"), filepath.Join(e.root, "lnk")); err != nil {
		t.Fatal(err)
	}
	out := e.run(adapt.PreTool, write(filepath.Join(e.root, "lnk", "x.go")))
	if !out.Answer.Block {
		t.Fatalf("edit of lnk/x.go (lnk -> src/api): got %+v, want a deny", out.Answer)
	}
	gated := e.events(events.TypeToolGated)
	if len(gated) != 1 || !slices.Equal(anyStrings(gated[0]["paths"]), []string{"src/api/x.go"}) {
		t.Fatalf("gated %v, want src/api/x.go", gated)
	}
}

// A rule written while no serve ran is gated all the same: the hook
// publishes the content tree before it judges.
func TestPreTool_StaleCatalogIsPublished(t *testing.T) {
	e := newEnforced(t, "block")
	e.load()
	e.write(".clumsies/rules/web/UI.md", "---\npaths: [\"web/**\"]\n---\n# UI\n\n## Do\n\n- Keep it.\n")
	if out := e.run(adapt.PreTool, write(filepath.Join(e.root, "web", "page.tsx"))); !out.Answer.Block {
		t.Fatalf("edit in scope of a rule never published: got %+v, want a deny", out.Answer)
	}
}

// The working tree is the witness: a shell write is recorded with the
// blob ids before and after, marked unnamed when the command named no
// such file; a forged or failed edit that changed nothing records
// nothing.
func TestPostTool_RecordsWhatChanged(t *testing.T) {
	e := newEnforced(t, "warn")
	e.run(adapt.UserPrompt, map[string]any{"prompt": "go"})
	e.write("src/api/x.go", "package api // changed\n")
	e.write("gen/out.txt", "generated\n")
	e.run(adapt.PostTool, bash("python3 gen.py > gen/out.txt"))
	e.run(adapt.PostTool, write(filepath.Join(e.root, "src", "api", "forged.go"))) // nothing changed
	edits := e.events(events.TypeFileEdit)
	if len(edits) != 1 {
		t.Fatalf("got %d attest.file_edit (%v), want 1", len(edits), edits)
	}
	d := edits[0]
	if !slices.Equal(anyStrings(d["paths"]), []string{"gen/out.txt", "src/api/x.go"}) ||
		!slices.Equal(anyStrings(d["unnamed"]), []string{"src/api/x.go"}) || d["tool"] != "Bash" {
		t.Fatalf("edit %v: want both files, src/api/x.go unnamed", d)
	}
	hashes := d["hashes"].(map[string]any)
	if hashes["src/api/x.go"] != gitHash("package api // changed\n") || d["before"].(map[string]any)["src/api/x.go"] != gitHash("package api\n") {
		t.Fatalf("hashes %v, before %v", hashes, d["before"])
	}
	if len(anyStrings(d["unloaded"])) != 1 || len(anyStrings(d["rules"])) != 1 {
		t.Fatalf("edit %v: want the rule in scope, not loaded", d)
	}
}

// The stop gate: in block mode, a turn that changed an in-scope file by a
// route no hook could read (an interpreter's inline code) cannot end
// until the rules are loaded; after the load it can.
func TestStop_GateCatchesOpaqueWrites(t *testing.T) {
	e := newEnforced(t, "block")
	e.run(adapt.UserPrompt, map[string]any{"prompt": "go"})
	if out := e.run(adapt.PreTool, bash(`python3 -c "open('src/api/x.go','a').write('x')"`)); out.Answer.Block {
		t.Fatalf("an opaque command was denied: %q", out.Answer.Reason)
	}
	e.write("src/api/x.go", "package api // by python\n")
	out := e.run(adapt.Stop, map[string]any{"stop_hook_active": false})
	if !out.Answer.Block || !strings.Contains(out.Answer.Reason, "src/api/x.go") || !strings.Contains(out.Answer.Reason, "memload") {
		t.Fatalf("stop: got %+v, want a hold naming src/api/x.go and memload", out.Answer)
	}
	blocked := e.events(events.TypeStopBlocked)
	if len(blocked) != 1 || !slices.Equal(anyStrings(blocked[0]["files"]), []string{"src/api/x.go"}) {
		t.Fatalf("stop_blocked %v, want the file named", blocked)
	}
	edits := e.events(events.TypeFileEdit)
	if len(edits) != 1 || edits[0]["via"] != events.ViaStop {
		t.Fatalf("file edits %v, want the change recorded at stop", edits)
	}
	e.load()
	// The report is still due; the gate's files no longer are.
	out = e.run(adapt.Stop, map[string]any{"stop_hook_active": false})
	if strings.Contains(out.Answer.Reason, "src/api/x.go") {
		t.Fatalf("after the load the stop still names the file: %q", out.Answer.Reason)
	}
}

// A linked git worktree of the workspace (a subagent's isolation) is
// gated with the main catalog and recorded in the main ledger, naming the
// worktree.
func TestWorktree_BelongsToTheWorkspace(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	e := newEnforced(t, "block")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = e.root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(e.root, ".gitignore"), []byte(".clumsies/state/\n"), 0o644)
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "init")
	wt := filepath.Join(e.root, ".claude", "worktrees", "agent-1")
	git("worktree", "add", "-q", wt)
	in := write(filepath.Join(wt, "src", "api", "x.go"))
	in["cwd"] = wt
	out := e.run(adapt.PreTool, in)
	if !out.Answer.Block {
		t.Fatalf("edit in the worktree: got %+v, want a deny from the main catalog", out.Answer)
	}
	gated := e.events(events.TypeToolGated)
	if len(gated) != 1 || gated[0]["worktree"] != ".claude/worktrees/agent-1" || !slices.Equal(anyStrings(gated[0]["paths"]), []string{"src/api/x.go"}) {
		t.Fatalf("gated %v, want src/api/x.go in worktree .claude/worktrees/agent-1", gated)
	}
	if _, err := os.Stat(filepath.Join(wt, ".clumsies", "state")); err == nil {
		t.Fatal("the worktree got a ledger of its own")
	}
	// A script's write in the worktree, the first change made there: the
	// pre-tool hook opens the call (the worktree's baseline), the check
	// after it records the change, and the stop of the session, in the
	// main tree, is held for it.
	script := bash("sh scripts/gen.sh")
	script["cwd"] = wt
	e.run(adapt.PreTool, script)
	if err := os.WriteFile(filepath.Join(wt, "src", "api", "x.go"), []byte("package api // by the script\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.run(adapt.PostTool, script)
	edits := e.events(events.TypeFileEdit)
	if len(edits) != 1 || edits[0]["worktree"] != ".claude/worktrees/agent-1" || !slices.Equal(anyStrings(edits[0]["unnamed"]), []string{"src/api/x.go"}) {
		t.Fatalf("file edits %v, want the script's change in the worktree", edits)
	}
	out = e.run(adapt.Stop, map[string]any{"stop_hook_active": false})
	if !out.Answer.Block || !strings.Contains(out.Answer.Reason, "src/api/x.go") {
		t.Fatalf("stop in the main tree: got %+v, want a hold naming the worktree's change", out.Answer)
	}
}

func anyStrings(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, s := range l {
		out = append(out, s.(string))
	}
	return out
}

func gitHash(s string) string {
	cmd := exec.Command("git", "hash-object", "--stdin")
	cmd.Stdin = strings.NewReader(s)
	out, err := cmd.Output()
	if err != nil {
		return "git unavailable"
	}
	return strings.TrimSpace(string(out))
}

// A tool call during which rules were published is marked: the rules in
// scope may not be those the gate judged before it.
func TestPostTool_MarksRepublished(t *testing.T) {
	e := newEnforced(t, "warn")
	e.run(adapt.UserPrompt, map[string]any{"prompt": "go"})
	call := func(id, body string, publish bool) {
		t.Helper()
		in := write(filepath.Join(e.root, "notes.txt"))
		in["tool_use_id"] = id
		e.run(adapt.PreTool, in)
		if publish {
			e.write(".clumsies/rules/web/UI.md", "---\npaths: [\"web/**\"]\n---\n# UI\n\n## Do\n\n- Keep it.\n")
			hd := e.attach()
			if _, err := hd.Publish(context.Background()); err != nil {
				t.Fatal(err)
			}
			hd.Close()
		}
		e.write("notes.txt", body)
		e.run(adapt.PostTool, in)
	}
	call("toolu_1", "one\n", false)
	call("toolu_2", "two\n", true)
	edits := e.events(events.TypeFileEdit)
	if len(edits) != 2 || edits[0]["republished"] != nil || edits[1]["republished"] != true {
		t.Fatalf("file edits %v, want the second marked republished", edits)
	}
}

// Sessions acting at once: a change goes to the call that found it, and
// the other session with a call open meanwhile is named as a candidate;
// no change is dropped.
func TestPostTool_OverlappingSessionsAreCandidates(t *testing.T) {
	e := newEnforced(t, "warn")
	e.run(adapt.UserPrompt, map[string]any{"prompt": "go"})
	other := write(filepath.Join(e.root, "b.txt"))
	other["session_id"], other["tool_use_id"] = "other-session", "toolu_b"
	e.run(adapt.PreTool, other) // the other session's tool is running
	mine := write(filepath.Join(e.root, "a.txt"))
	mine["tool_use_id"] = "toolu_a"
	e.run(adapt.PreTool, mine)
	e.write("a.txt", "a\n")
	e.write("b.txt", "b\n") // written by the other session's tool, before its post-tool
	e.run(adapt.PostTool, mine)
	e.run(adapt.PostTool, other)
	edits := e.events(events.TypeFileEdit)
	if len(edits) != 1 || !slices.Equal(anyStrings(edits[0]["paths"]), []string{"a.txt", "b.txt"}) ||
		!slices.Equal(anyStrings(edits[0]["candidates"]), []string{"other-session"}) || !slices.Equal(anyStrings(edits[0]["unnamed"]), []string{"b.txt"}) {
		t.Fatalf("file edits %v, want both changes with the other session as a candidate", edits)
	}
}
