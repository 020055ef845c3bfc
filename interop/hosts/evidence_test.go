package hosts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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

// typeFileEdit is the post-tool hook's event (events.TypeFileEdit once the
// hook is merged).
const typeFileEdit events.Type = "attest.file_edit"

// editHooks is what the built binary has of the hooks the edit checks
// need: `post-tool` (evidence) and `pre-tool` (the gate).
type editHooks struct {
	postTool, preTool bool
	// postToolGap, when set, is why the host runs no post-tool hook for
	// the scripted edit: with no event recorded, the check is skipped
	// with it.
	postToolGap string
}

// prepareEdit has the script make e after memdisc and readies the
// workspace for the checks the binary can run: a rule in scope for the
// edited file, and the gate in block mode. Call it before adapt's
// workspace is used by the host.
func (p *project) prepareEdit(t *testing.T, m *modelServer, tool string, args func(path string) map[string]any) editHooks {
	t.Helper()
	h := editHooks{postTool: hasHookEvent(t, "post-tool"), preTool: hasHookEvent(t, "pre-tool")}
	path := filepath.Join(p.dir, filepath.FromSlash(editedFile))
	m.setEdit(edit{tool: tool, args: args(path), path: path})
	if h.postTool || h.preTool {
		writeFile(t, filepath.Join(p.dir, ".clumsies", "rules", filepath.FromSlash(scopedRule)), scopedRules)
	}
	if h.preTool {
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

// checkEdit checks the scripted edit: the host's tool wrote the file, a
// post-tool hook recorded it with the rule in scope, and a gate in block
// mode denied it until the rules were loaded. The last two are skipped
// while the binary does not have those hook events.
func (p *project) checkEdit(t *testing.T, m *modelServer, h editHooks) {
	t.Helper()
	id, _, _ := m.seen()
	if b, err := os.ReadFile(filepath.Join(p.dir, filepath.FromSlash(editedFile))); err != nil || string(b) != editedText {
		t.Errorf("the host's edit tool did not write %s: %q, %v", editedFile, b, err)
	}
	evs := p.ledger(t)
	t.Run("PostToolRecordsTouchedFile", func(t *testing.T) {
		if !h.postTool {
			t.Skip("this clumsies has no post-tool hook event yet (`clumsies hook -h` does not list it)")
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
			}
			if err := json.Unmarshal(e.Data, &d); err != nil {
				t.Fatalf("read an %s event: %v", typeFileEdit, err)
			}
			if !slices.Equal(d.Paths, []string{editedFile}) || len(d.Rules) != 1 {
				t.Errorf("%s records paths %q, rules in scope %q; want [%s] and the one rule of %s", typeFileEdit, d.Paths, d.Rules, editedFile, scopedRule)
			}
		}
		if len(edits) == 0 && h.postToolGap != "" {
			t.Skip(h.postToolGap)
		}
		if len(edits) != 1 {
			t.Errorf("%d %s events of session %q, want 1 (the edit that ran)", len(edits), typeFileEdit, id)
		}
	})
	t.Run("GateDeniesEditUntilRulesLoaded", func(t *testing.T) {
		if !h.preTool {
			t.Skip("this clumsies has no pre-tool hook event yet (`clumsies hook -h` does not list it)")
		}
		if denied := m.denied(); len(denied) != 1 {
			t.Errorf("the gate denied the edit %d times naming memload, want once: %q", len(denied), denied)
		}
		if n := count(evs, id, events.TypeLoad); n != 1 {
			t.Errorf("%d %s events of session %q after the denial, want 1", n, events.TypeLoad, id)
		}
	})
}
