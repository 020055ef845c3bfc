package hosts

import (
	"cmp"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// The file the scripted edit writes, relative to the workspace, and the
// rule in scope for it.
const (
	editedFile  = "api/handler.go"
	editedText  = "package api\n"
	scopedRule  = "api/HANDLERS.md"
	scopedRules = "---\npaths:\n  - \"api/**\"\n---\n# API handlers\n\nHow our HTTP handlers answer.\n\n" +
		"## Errors\n\n- Handlers return wrapped errors.\n"
)

// The events of the post-tool hook and the gate (events.TypeFileEdit and
// events.TypeToolGated once they are merged).
const (
	typeFileEdit  events.Type = "attest.file_edit"
	typeToolGated events.Type = "attest.tool_gated"
)

// editHooks says which edit checks run: a check's field is empty when it
// runs, else why it is skipped.
type editHooks struct {
	postTool, preTool string
	// viaStop, when set, is why the host runs no post-tool hook for the
	// scripted edit: the stop hook's check of the working tree records it
	// instead (attest.file_edit's via "stop").
	viaStop string
}

// prepareEdit has the script make the edit with the host's tool after
// memdisc (args gives its arguments for the absolute path), and readies
// the workspace for the checks this binary and this host's wiring can
// run: a rule in scope for the edited file, and the gate in block mode.
func (p *project) prepareEdit(t *testing.T, m *modelServer, tool string, args func(path string) map[string]any) *editHooks {
	t.Helper()
	h := &editHooks{postTool: p.hookSkip(t, "post-tool"), preTool: p.hookSkip(t, "pre-tool")}
	path := filepath.Join(p.dir, filepath.FromSlash(editedFile))
	m.setEdit(edit{tool: tool, args: args(path), path: path})
	if hasHookEvent(t, "post-tool") || hasHookEvent(t, "pre-tool") {
		writeFile(t, filepath.Join(p.dir, ".clumsies", "rules", filepath.FromSlash(scopedRule)), scopedRules)
	}
	if hasHookEvent(t, "pre-tool") {
		f, err := os.OpenFile(filepath.Join(p.dir, ".clumsies", "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString("\n[enforce]\nmode = \"block\"\n"); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// hookSkip returns why the check of the hook event is skipped, or "" when
// it runs: the binary must have the event and adapt must have wired it for
// the host (a file it wrote names it).
func (p *project) hookSkip(t *testing.T, event string) string {
	t.Helper()
	if !hasHookEvent(t, event) {
		return "this clumsies has no " + event + " hook event yet (`clumsies hook -h` does not list it)"
	}
	wired := false
	filepath.WalkDir(p.dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // unreadable: not adapt's
		case d.IsDir() && d.Name() == ".clumsies":
			return filepath.SkipDir
		case d.IsDir():
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), event) {
			wired = true
		}
		return nil
	})
	if !wired {
		return "clumsies adapt wired no " + event + " hook for this host (no file it wrote names " + event + ")"
	}
	return ""
}

// checkEdit checks the scripted edit: the host's tool wrote the file, a
// post-tool hook recorded it with the rule in scope (the stop hook's check
// of the working tree, where the host runs no post-tool hook for it), and
// a gate in block mode denied it until the rules were loaded. The last two are skipped
// while the binary does not have those hook events.
func (p *project) checkEdit(t *testing.T, m *modelServer, h *editHooks) {
	t.Helper()
	id, _, _ := m.seen()
	if b, err := os.ReadFile(filepath.Join(p.dir, filepath.FromSlash(editedFile))); err != nil || string(b) != editedText {
		t.Errorf("the host's edit tool did not write %s: %q, %v", editedFile, b, err)
	}
	evs := p.ledger(t)
	t.Run("PostToolRecordsTouchedFile", func(t *testing.T) {
		if h.postTool != "" {
			t.Skip(h.postTool)
		}
		var edits []events.Type
		for _, e := range evs {
			if e.SessionID != id || e.Type != typeFileEdit {
				continue
			}
			edits = append(edits, e.Type)
			var d struct {
				Paths []string `json:"paths"`
				Rules []string `json:"rules"`
				Via   string   `json:"via"`
			}
			if err := json.Unmarshal(e.Data, &d); err != nil {
				t.Fatalf("read an %s event: %v", typeFileEdit, err)
			}
			if !slices.Equal(d.Paths, []string{editedFile}) || len(d.Rules) != 1 {
				t.Errorf("%s records paths %q, rules in scope %q; want [%s] and the one rule of %s", typeFileEdit, d.Paths, d.Rules, editedFile, scopedRule)
			}
			switch via := cmp.Or(d.Via, events.ViaPostTool); {
			case h.viaStop != "" && via != events.ViaStop:
				t.Errorf("%s records the edit via %q, want %q: %s", typeFileEdit, via, events.ViaStop, h.viaStop)
			case h.viaStop == "" && via != events.ViaPostTool:
				t.Errorf("%s records the edit via %q, want %q: the host ran its post-tool hook after the edit", typeFileEdit, via, events.ViaPostTool)
			}
		}
		if len(edits) != 1 {
			t.Errorf("%d %s events of session %q, want 1 (the edit that ran)", len(edits), typeFileEdit, id)
		}
	})
	t.Run("GateDeniesEditUntilRulesLoaded", func(t *testing.T) {
		if h.preTool != "" {
			t.Skip(h.preTool)
		}
		if denied := m.denied(); len(denied) != 1 {
			t.Errorf("the gate denied the edit %d times naming memload, want once: %q", len(denied), denied)
		}
		var decisions []string
		for _, e := range evs {
			var d struct {
				Decision string `json:"decision"`
			}
			if e.SessionID == id && e.Type == typeToolGated && json.Unmarshal(e.Data, &d) == nil {
				decisions = append(decisions, d.Decision)
			}
		}
		if !slices.Equal(decisions, []string{"deny"}) {
			t.Errorf("the %s events of session %q decide %q, want one deny (the denied edit)", typeToolGated, id, decisions)
		}
		if n := count(evs, id, events.TypeLoad); n != 1 {
			t.Errorf("%d %s events of session %q after the denial, want 1", n, events.TypeLoad, id)
		}
	})
}
