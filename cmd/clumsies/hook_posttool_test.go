package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/treecheck"
	"github.com/clumsies/clumsies/views/dash"
)

// TestHook_PostToolEvidence runs every host's post-tool inputs
// (agent/adapt/testdata/<host>/post-tool*.json) through the built binary with
// `clumsies serve` owning the workspace, each after the files it names
// were written: each file-changing tool use is one attest.file_edit with
// the changed paths relative to the workspace (outside ones as
// "(outside)") and their git blob ids, a read records nothing, and the
// hook answers the host's neutral answer. The rules in scope of the
// touched files at that moment are in the event. A failed tool's input
// (post-tool-failed.json) changed nothing on disk and records nothing.
func TestHook_PostToolEvidence(t *testing.T) {
	dir := newWorkspace(t)
	writeRule(t, dir, "api/HANDLERS.md", "api/**/*.go")
	_, cl := serve(t, dir)
	setup(t, cl, "a-reader")
	api := ruleID(t, cl, "api/HANDLERS.md")
	want := map[string][]string{
		"claude-code/post-tool":          {"api/handler.go"},
		"claude-code/post-tool-notebook": {"notebooks/load.ipynb"},
		"claude-code/post-tool-copilot":  {"api/handler.go"},
		"copilot/post-tool":              {"api/handler.go"},
		"vscode/post-tool":               {"api/handler.go"},
		"vscode/post-tool-files":         {"api/handler.go"},
		"windsurf/post-tool":             {"api/handler.go"},
		"codex/post-tool":                {"api/client.go", "api/handler.go", "api/old.go", "docs/retry.md"},
		"cursor/post-tool":               {"api/handler.go"},
		"gemini-cli/post-tool":           {"api/handler.go"},
		"opencode/post-tool":             {"(outside)"},
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "agent", "adapt", "testdata", "*", "post-tool*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no post-tool inputs: %v", err)
	}
	// The first check of the tree is its baseline: a prompt's hook makes it.
	runHook(t, dir, "claude-code", adapt.UserPrompt, claudeInput(t, adapt.UserPrompt, "baseline", dir, false))
	bySession := map[string][]string{}
	var blobs []map[string]string // per call that changed files in the workspace: path -> blob id written
	for i, f := range files {
		host := filepath.Base(filepath.Dir(f))
		name := host + "/" + strings.TrimSuffix(filepath.Base(f), ".json")
		failed := strings.HasSuffix(name, "-failed")
		raw := bytes.ReplaceAll(mustRead(t, f), []byte("/home/ana/shop"), []byte(dir))
		h, err := adapt.Lookup(host)
		if err != nil {
			t.Fatal(err)
		}
		in, err := h.Read(adapt.PostTool, raw)
		if err != nil {
			t.Fatal(err)
		}
		wrote := map[string]string{}
		for _, p := range in.Files { // the tool's change, as the host ran it (none when it failed)
			if failed {
				break
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(in.Dir, p)
			}
			if rel, err := filepath.Rel(dir, p); err == nil && filepath.IsLocal(rel) {
				body := fmt.Sprintf("// written by %s, call %d\n", name, i)
				writeFile(t, p, body)
				wrote[filepath.ToSlash(rel)] = gitBlobID(body)
			}
		}
		if len(wrote) > 0 {
			blobs = append(blobs, wrote)
		}
		if r := runHook(t, dir, host, adapt.PostTool, raw); r.code != 0 || r.stdout != string(h.Answer(adapt.PostTool, adapt.Answer{})) || r.stderr != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", name, r.code, r.stdout, r.stderr)
		}
		if w, ok := want[name]; ok {
			bySession[in.SessionID] = append(bySession[in.SessionID], strings.Join(w, " ")+" by "+in.Tool)
		}
	}
	got := map[string][]string{}
	evs := eventLines(t, dir, "--type", "attest.file_edit")
	for _, ev := range evs {
		data := ev["data"].(map[string]any)
		var paths []string
		for _, p := range data["paths"].([]any) {
			paths = append(paths, p.(string))
		}
		wantRules := "[]"
		if strings.Contains(strings.Join(paths, " "), ".go") {
			wantRules = `["` + api + `"]`
		}
		if rules, _ := json.Marshal(data["rules"]); string(rules) != wantRules {
			t.Errorf("event %v: got rules in scope %s, want %s", data, rules, wantRules)
		}
		sid := ev["sessionId"].(string)
		got[sid] = append(got[sid], strings.Join(paths, " ")+" by "+data["tool"].(string))
		hashes, _ := data["hashes"].(map[string]any)
		if len(hashes) == 0 {
			continue // outside the workspace only
		}
		if len(blobs) == 0 {
			t.Fatalf("event %v: no call wrote its files", data)
		}
		wrote := blobs[0]
		blobs = blobs[1:]
		for _, p := range paths {
			if p != "(outside)" && hashes[p] != wrote[p] {
				t.Errorf("event %v: blob id of %s %v, want %s", data, p, hashes[p], wrote[p])
			}
		}
	}
	for sid := range bySession {
		slices.Sort(bySession[sid])
		slices.Sort(got[sid])
		if !slices.Equal(got[sid], bySession[sid]) {
			t.Errorf("session %s: got edits %q, want %q", sid, got[sid], bySession[sid])
		}
	}
	if len(evs) != len(want) {
		t.Errorf("got %d attest.file_edit events, want %d (one per file-changing tool use, none for a read)", len(evs), len(want))
	}
	for _, ev := range evs {
		if b, _ := json.Marshal(ev); bytes.Contains(b, []byte("return err")) || bytes.Contains(b, []byte(dir)) {
			t.Errorf("event %s holds file contents or an absolute path", b)
		}
	}
}

// TestHook_ClaimWithoutEvidence: a session that edits a file (post-tool
// hook) and claims a rule it never loaded is flagged, in `stats --json`
// per session and per rule and in `stats`; a claim after loading is not;
// a claim of a loaded rule whose paths none of the touched files match is.
func TestHook_ClaimWithoutEvidence(t *testing.T) {
	dir := newWorkspace(t)
	writeRule(t, dir, "web/UI.md", "web/**")
	_, cl := serve(t, dir)
	id := hookSession(t, dir, "3c1d2e4f-claims", func(id, secret string) { setupWith(t, cl, id, secret) })
	postToolWrite(t, dir, id, "api/handler.go")
	wf := workflowID(t, cl)
	refer := map[string]any{"refs": []any{map[string]any{"ruleId": wf, "constraintId": "Steps/1"}}}
	call(t, cl, "memref", refer) // never loaded: without evidence
	load(t, cl, wf)
	call(t, cl, "memref", refer) // loaded: supported
	web := ruleID(t, cl, "web/UI.md")
	load(t, cl, web)
	call(t, cl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": web, "constraintId": "Do/1"}}}) // out of scope
	call(t, cl, "agentreport", map[string]any{"summary": "wrote the handler"})

	// start, setup, prompt, edit, memdisc, ref, load, ref, memdisc, load, ref, report
	c := complianceOf(t, dir, id, 12)
	if c["unsupported"] != 2.0 || c["edits"] != 1.0 || c["rulesLoaded"] != 2.0 || c["rulesInScope"] != 0.0 || c["compliant"] != false {
		t.Fatalf("compliance: got %v, want 1 edit, 2 rules loaded, none in scope, 2 claims without evidence, not compliant", c)
	}
	var st struct {
		Evidence struct {
			Edits, Unsupported float64
			Rules              []map[string]any
			Sessions           []struct {
				ID    string
				Paths []string
				Rules []map[string]any
			}
		}
	}
	if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	e := st.Evidence
	why := map[string]string{}
	for _, r := range e.Rules {
		if r["loaded"] != 1.0 || r["referenced"] != 1.0 || r["unsupported"] != 1.0 {
			t.Errorf("evidence of rule %v: want loaded, referenced, 1 unsupported claim", r)
		}
	}
	if e.Edits != 1 || e.Unsupported != 2 || len(e.Rules) != 2 || len(e.Sessions) != 1 ||
		!slices.Equal(e.Sessions[0].Paths, []string{"api/handler.go"}) {
		t.Fatalf("evidence: got %+v, want 1 edit of api/handler.go and 2 unsupported claims of 2 rules", e)
	}
	for _, r := range e.Sessions[0].Rules {
		why[r["id"].(string)] = r["why"].(string)
	}
	if why[wf] != "not loaded" || why[web] != "no touched file in scope" {
		t.Fatalf("why the claims are unsupported: got %v", why)
	}
	out := mustRun(t, dir, "stats")
	if !strings.Contains(out, "claimed without evidence") || !strings.Contains(out, "touched: api/handler.go") {
		t.Fatalf("stats does not show the claim without evidence:\n%s", out)
	}
	// The dashboard's session and rule pages show the same.
	base := serveHTTP(t, dir, "--http", "127.0.0.1:0")
	tok := testbin.HTTPToken(t, dir)
	var se dash.Session
	getJSON(t, base, "/api/sessions/"+url.PathEscape(id), tok, &se)
	if se.Evidence == nil || se.Evidence.Unsupported != 2 || !slices.Equal(se.Evidence.Paths, []string{"api/handler.go"}) {
		t.Errorf("dashboard session page: got evidence %+v, want api/handler.go touched and 2 claims without evidence", se.Evidence)
	}
	var ru dash.Rule
	getJSON(t, base, "/api/rules/"+url.PathEscape(web), tok, &ru)
	if ev := ru.Evidence; !slices.Equal(ru.Paths, []string{"web/**"}) || ev.Loaded != 1 || ev.Referenced != 1 || ev.InScope != 0 ||
		len(ev.Claims) != 1 || ev.Claims[0].SessionID != id || ev.Claims[0].Why != "no touched file in scope" {
		t.Errorf("dashboard rule page: got paths %q, evidence %+v", ru.Paths, ev)
	}
	// The evidence rows are what a replay of the ledger gives.
	mustRun(t, dir, "verify")
}

// postToolWrite writes file (relative to dir) as a Write tool of session
// id would, then runs Claude Code's post-tool hook for it.
func postToolWrite(tb testing.TB, dir, id, file string) {
	tb.Helper()
	var in map[string]any
	if err := json.Unmarshal(claudeInput(tb, adapt.UserPrompt, id, dir, false), &in); err != nil {
		tb.Fatal(err)
	}
	in["hook_event_name"], in["tool_name"] = "PostToolUse", "Write"
	in["tool_input"] = map[string]any{"file_path": filepath.Join(dir, filepath.FromSlash(file)), "content": "package api"}
	writeFile(tb, filepath.Join(dir, filepath.FromSlash(file)), "package api // "+id+"\n")
	raw, _ := json.Marshal(in)
	if r := runHook(tb, dir, "claude-code", adapt.PostTool, raw); r.code != 0 || r.stderr != "" {
		tb.Fatalf("post-tool hook: exit %d, stderr %q", r.code, r.stderr)
	}
}

// writeRule writes a rule at rules/path that applies to the files glob
// matches (front matter paths).
func writeRule(tb testing.TB, dir, path, glob string) {
	tb.Helper()
	p := filepath.Join(dir, ".clumsies", "rules", filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	body := "---\npaths:\n  - \"" + glob + "\"\n---\n# Scoped\n\nWhere it applies.\n\n## Do\n\n- Keep it so.\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// TestHook_PostToolFailsOpen: without a workspace, or with input it cannot
// read, the post-tool hook exits 0 with the host's neutral answer and one
// line on stderr; the agent goes on.
func TestHook_PostToolFailsOpen(t *testing.T) {
	nowhere := t.TempDir()
	for _, h := range adapt.Hosts() {
		raw := []byte(`{"session_id":"s-1","conversation_id":"s-1","cwd":"` + nowhere + `","tool_name":"Write","file_path":"` +
			nowhere + `/a.go","tool_input":{"file_path":"` + nowhere + `/a.go"}}`)
		r := runHook(t, nowhere, h.Name, adapt.PostTool, raw)
		if r.code != 0 || r.stdout != string(h.Answer(adapt.PostTool, adapt.Answer{})) || !strings.Contains(r.stderr, "clumsies init") {
			t.Errorf("%s without a workspace: exit %d, stdout %q, stderr %q", h.Name, r.code, r.stdout, r.stderr)
		}
	}
	dir := newWorkspace(t)
	for _, garbage := range []string{"", "not json", `{"tool_name": "Write"}`} {
		r := runHook(t, dir, "claude-code", adapt.PostTool, []byte(garbage))
		if r.code != 0 || r.stdout != "" || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || r.stderr == "" {
			t.Errorf("stdin %q: exit %d, stdout %q, stderr %q; want exit 0, no answer, one line", garbage, r.code, r.stdout, r.stderr)
		}
	}
}

// writeFile writes body to the file p, making its folder.
func writeFile(tb testing.TB, p, body string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// gitBlobID is the git blob id of content, as git hash-object prints it.
func gitBlobID(content string) string {
	return treecheck.BlobID([]byte(content))
}
