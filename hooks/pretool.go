package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/clumsies/clumsies/adapt"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// preTool is the gate ([enforce] mode in config.toml, docs/rules.md): for
// a tool about to change files that rules or workflows apply to (their
// front matter paths) which the session has not loaded, it warns the
// agent (warn) or denies the tool (block), naming the memload call to
// make, and records attest.tool_gated. Tools that change no file, mode
// off and files outside the workspace get the neutral answer without
// opening the workspace's ledger. Like every hook it fails open: an error
// lets the tool run and is said on stderr. A guest (Copilot CLI running
// Claude Code's hook) stays neutral where Copilot's own gate is wired, so
// an edit is gated once.
func preTool(ctx context.Context, r Request, in adapt.Input) (adapt.Answer, error) {
	if len(in.Files) == 0 {
		return adapt.Answer{}, nil // a read, or a tool that names no file
	}
	ws, err := findWorkspace(r.Dir, in.Dir)
	if err != nil {
		return adapt.Answer{}, err
	}
	mode := ws.Config.Enforce.Effective()
	if home, _ := os.UserHomeDir(); mode == workspace.EnforceOff || r.Guest && adapt.CopilotHooked(ws.Root, home) {
		return adapt.Answer{}, nil
	}
	paths := inside(workspacePaths(ws.Root, in.Dir, in.Files))
	if len(paths) == 0 {
		return adapt.Answer{}, nil
	}
	hd, err := node.Attach(ctx, ws, node.Options{AttachWait: attachWait, RetryFor: retryFor})
	if err != nil {
		return adapt.Answer{}, fmt.Errorf("open the workspace %s: %w", ws.Root, err)
	}
	defer hd.Close()
	g, err := hd.Gate(ctx, node.GateQuery{Session: in.SessionID, Paths: paths})
	if err != nil {
		return adapt.Answer{}, fmt.Errorf("read the rules in scope: %w", err)
	}
	if len(g.Missing) == 0 {
		return adapt.Answer{}, nil
	}
	data := events.ToolGatedData{Host: r.Host.Name, Tool: in.Tool, Paths: paths, Decision: events.GateWarn}
	if mode == workspace.EnforceBlock {
		data.Decision = events.GateDeny
	}
	var lines []string
	for _, m := range g.Missing {
		data.Missing = append(data.Missing, m.Item.ID)
		lines = append(lines, fmt.Sprintf("%s (%s, for %s)", m.Item.ID, m.Item.Path, strings.Join(m.Matched, ", ")))
	}
	if err := record(ctx, hd, in.SessionID, events.TypeToolGated, data); err != nil {
		return adapt.Answer{}, err // not recorded, not gated
	}
	msg := gateMessage(in.SessionID, data, lines)
	if data.Decision == events.GateDeny {
		return adapt.Answer{Block: true, Reason: msg}, nil
	}
	return adapt.Answer{Context: msg}, nil
}

// gateMessage is what the agent reads: which rules apply, and the exact
// memload call that loads them.
func gateMessage(session string, d events.ToolGatedData, rules []string) string {
	known := make(map[string]string, len(d.Missing))
	for _, id := range d.Missing {
		known[id] = ""
	}
	args, _ := json.Marshal(map[string]any{"ids": d.Missing, "knownHashes": known})
	var b strings.Builder
	fmt.Fprintf(&b, "clumsies: rules of this workspace apply to %s and are not loaded in this session: %s. ",
		strings.Join(d.Paths, ", "), strings.Join(rules, "; "))
	if d.Decision == events.GateDeny {
		b.WriteString("This change was not made. ")
	}
	fmt.Fprintf(&b, "Call the clumsies MCP tool memload with %s, follow what it says, then make the change", args)
	if d.Decision == events.GateDeny {
		b.WriteString(" again")
	}
	fmt.Fprintf(&b, ". (If you have not called memsetup yet, call it first with session_id %q.)", session)
	return b.String()
}
