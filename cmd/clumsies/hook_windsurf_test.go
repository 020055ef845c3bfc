package main_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/agent/adapt"
)

// TestHook_WindsurfGateExitsTwo plays Windsurf's pre_write_code
// (agent/adapt/testdata/windsurf/pre-tool.json) against the built binary in
// block mode: Windsurf reads a refusal from the exit status alone, so the
// hook exits 2 with the reason on stderr, which its agent reads, naming
// the memload call and the session id to set up with. A file no rule
// applies to runs, with status 0.
func TestHook_WindsurfGateExitsTwo(t *testing.T) {
	dir := scopedWorkspace(t, "block")
	mustRun(t, dir, "publish")
	raw := bytes.ReplaceAll(mustRead(t, filepath.Join("..", "..", "agent", "adapt", "testdata", "windsurf", "pre-tool.json")),
		[]byte("/home/ana/shop"), []byte(dir))
	in, err := adapt.Lookup("windsurf")
	if err != nil {
		t.Fatal(err)
	}
	call, err := in.Read(adapt.PreTool, raw)
	if err != nil {
		t.Fatal(err)
	}
	r := runHook(t, dir, "windsurf", adapt.PreTool, raw)
	if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "memload") || !strings.Contains(r.stderr, call.SessionID) {
		t.Fatalf("write in scope: exit %d, stdout %q, stderr %q; want exit 2 with the reason, naming memload and the session", r.code, r.stdout, r.stderr)
	}
	out := bytes.ReplaceAll(raw, []byte("api/handler.go"), []byte("README.md"))
	if r := runHook(t, dir, "windsurf", adapt.PreTool, out); r.code != 0 || r.stdout != "" {
		t.Fatalf("write out of scope: exit %d, stdout %q, stderr %q; want 0", r.code, r.stdout, r.stderr)
	}
}
