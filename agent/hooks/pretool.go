package hooks

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/workspace"
)

// preTool is the gate ([enforce] mode in config.toml, docs/rules.md): for
// a tool about to change files (an edit tool's, or the writes of a shell
// command read before it runs) that rules or workflows apply to (their
// front matter paths) which the session has not loaded, it warns the
// agent (warn) or denies the tool (block), naming the memload call to
// make, and records attest.tool_gated. A change of the enforcement's own
// files (config.toml, the content tree, the hooks' wiring) is denied in
// block mode whatever was loaded: the agent proposes it with artifact.
//
// It also notes the content of the files before the tool runs and opens
// the call's window, for the post-tool hook's evidence.
//
// The gate never says yes because it could not look: when the check
// cannot be made (the owner does not answer, the catalog cannot be read),
// it records that the tool ran unchecked where it can, and with [enforce]
// fail = "closed" denies the tool saying why. Otherwise, like every hook,
// an error lets the tool run and is said on stderr. A guest (Copilot CLI
// running Claude Code's hook) stays neutral where Copilot's own gate is
// wired, so an edit is gated once.
//
// While the [enforce] table is wrong, the gate holds edits in the
// strictest mode the table could have meant (workspace.TableWrong): each
// answer that gates says what is wrong and how to fix it, and the user
// reads it on stderr too (Outcome.Note).
func preTool(ctx context.Context, r Request, in adapt.Input) (Outcome, error) {
	tg := writeTargets(in)
	if len(tg.files) == 0 && len(tg.opaque) == 0 {
		return Outcome{}, nil // a read, or a tool that names no file
	}
	pl, err := findPlace(r.Dir, in.Dir, tg.files)
	if err != nil {
		return Outcome{}, err
	}
	if home, _ := os.UserHomeDir(); r.Guest && adapt.CopilotHooked(pl.ws.Root, home) {
		return Outcome{}, nil
	}
	paths := inside(workspacePaths(pl.tree, in.Dir, tg.files))
	if len(paths) == 0 && len(tg.opaque) == 0 {
		return Outcome{}, nil // every file the tool names is outside the workspace
	}
	a, err := gate(ctx, r, in, pl, tg, paths)
	out := Outcome{Answer: a}
	if w, ok := pl.ws.Config.EnforceWrong(); ok {
		out.Note = w.String()
	}
	return out, err
}

// gate is preTool's check of the tool's files, paths (workspace-relative)
// and the rest of tg.
func gate(ctx context.Context, r Request, in adapt.Input, pl place, tg targets, paths []string) (adapt.Answer, error) {
	ws := pl.ws
	mode := ws.Config.Enforce.Effective()
	data := events.ToolGatedData{Host: r.Host.Name, Tool: in.Tool, Paths: paths, Decision: events.GateWarn,
		Missing: []string{}, Protected: protected(ws, paths), Shell: tg.shell, ToolUseID: in.ToolUseID, Worktree: pl.worktree}
	if mode == workspace.EnforceBlock {
		data.Decision = events.GateDeny
	}
	hd, err := node.Attach(ctx, ws, node.Options{AttachWait: attachWait, RetryFor: retryFor})
	if err != nil {
		err = fmt.Errorf("open the workspace %s: %w", ws.Root, err)
		if len(paths) == 0 {
			return adapt.Answer{}, err
		}
		return unchecked(ctx, nil, in, ws, data, err)
	}
	defer hd.Close()
	publishIfOwner(ctx, hd)
	// The call's window opens (a worktree seen for the first time gets its
	// baseline) with the content of the files it names, so that the check
	// after it attributes what it changed. A command whose writes cannot be
	// known has nothing to gate now: it runs, and the check after it and
	// the stop gate catch what it wrote.
	if _, err := tree(ctx, hd, pl, node.TreeNote, in.SessionID, in.ToolUseID, paths); err != nil {
		fmt.Fprintf(os.Stderr, "clumsies hook pre-tool: note the files before the tool: %v\n", err)
	}
	if len(paths) == 0 || mode == workspace.EnforceOff {
		return adapt.Answer{}, nil
	}
	g, err := gateOf(ctx, hd, in.SessionID, paths)
	if err != nil {
		return unchecked(ctx, hd, in, ws, data, err)
	}
	if len(g.Missing) == 0 && len(data.Protected) == 0 {
		return adapt.Answer{}, nil
	}
	var lines []string
	for _, m := range g.Missing {
		data.Missing = append(data.Missing, m.Item.ID)
		lines = append(lines, fmt.Sprintf("%s (%s, for %s)", m.Item.ID, m.Item.Path, listed(m.Matched)))
	}
	if err := record(ctx, hd, in.SessionID, events.TypeToolGated, data); err != nil {
		return adapt.Answer{}, err // not recorded, not gated
	}
	msg := wrongEnforce(ws) + gateMessage(in.SessionID, data, lines)
	if data.Decision == events.GateDeny {
		return adapt.Answer{Block: true, Reason: msg}, nil
	}
	return adapt.Answer{Context: msg}, nil
}

// publishIfOwner publishes the content tree where the hook itself owns
// the workspace (no serve runs, and nothing else publishes) and the tree
// changed since the catalog was last in line with it (a rule added while
// no serve ran): the gate judges by the rules on disk, not by a stale
// catalog. serve publishes every change of the tree itself, at start and
// as it happens. A content tree that cannot be published as a whole is
// still gated by what could be.
func publishIfOwner(ctx context.Context, hd *node.Handle) {
	if !hd.IsOwner() {
		return
	}
	if _, err := hd.Publish(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "clumsies hook: publish the content tree: %v; reading the catalog as it is\n", err)
	}
}

// gateOf asks the owner what the gate needs.
func gateOf(ctx context.Context, hd *node.Handle, session string, paths []string) (projections.Gate, error) {
	g, err := hd.Gate(ctx, node.GateQuery{Session: session, Paths: paths})
	if err != nil {
		return g, fmt.Errorf("read the rules in scope: %w", err)
	}
	return g, nil
}

// unchecked answers a gate that could not check: recorded as such where
// the ledger can be reached (hd not nil); denied with why under [enforce]
// fail = "closed", else let run with the error on stderr.
func unchecked(ctx context.Context, hd *node.Handle, in adapt.Input, ws *workspace.Workspace, data events.ToolGatedData, cause error) (adapt.Answer, error) {
	data.Unchecked = cause.Error()
	data.Decision = events.GateAllow
	if ws.Config.Enforce.FailClosed() {
		data.Decision = events.GateDeny
	}
	if hd != nil {
		if err := record(ctx, hd, in.SessionID, events.TypeToolGated, data); err != nil {
			cause = fmt.Errorf("%w; and recording that: %v", cause, err)
		}
	}
	if data.Decision == events.GateDeny {
		why := `[enforce] fail = "closed" in .clumsies/config.toml`
		if _, wrong := ws.Config.EnforceWrong(); wrong {
			why = "its [enforce] table is wrong, so the gate fails closed"
		}
		return adapt.Answer{Block: true, Reason: wrongEnforce(ws) + fmt.Sprintf("clumsies: this change was not made: the gate could not check the rules "+
			"that apply to %s (%v), and this workspace denies what it cannot check (%s). "+
			"Try again in a moment; if it persists, ask the user to run `clumsies doctor`.", listed(data.Paths), cause, why)}, nil
	}
	return adapt.Answer{}, fmt.Errorf("the tool runs unchecked: %w", cause)
}

// gateMessage is what the agent reads: which rules apply, and the exact
// memload call that loads them; or, for the enforcement's own files, how
// to propose the change instead.
func gateMessage(session string, d events.ToolGatedData, rules []string) string {
	var b strings.Builder
	if len(d.Protected) > 0 {
		fmt.Fprintf(&b, "clumsies: %s %s this workspace's own enforcement (its rules, .clumsies/config.toml or the agent hooks' wiring): "+
			"an agent does not change it directly. ", listed(d.Protected), isOrAre(len(d.Protected)))
		if d.Decision == events.GateDeny {
			b.WriteString("This change was not made. ")
		}
		b.WriteString("Propose a change of a rule, workflow or context file with the clumsies MCP tool artifact (a draft that people review); " +
			"ask the user for a change of the config or the hooks.")
		if len(d.Missing) == 0 {
			return b.String()
		}
		b.WriteString(" Also: ")
	}
	args := memloadArgs(d.Missing)
	fmt.Fprintf(&b, "clumsies: rules of this workspace apply to %s and are not loaded in this session: %s. ",
		listed(d.Paths), strings.Join(rules, "; "))
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

// maxListed bounds the files a message names.
const maxListed = 20

// listed names paths, the first maxListed of them.
func listed(paths []string) string {
	if len(paths) <= maxListed {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:maxListed], ", "), len(paths)-maxListed)
}

func isOrAre(n int) string {
	if n == 1 {
		return "is part of"
	}
	return "are part of"
}
