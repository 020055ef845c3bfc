package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/workspace"
)

// StopBlockLimit is how many stops in a row the stop hook refuses before
// it lets an agent go.
const StopBlockLimit = 2

// MaxStopFiles bounds the files a stop gate's reason names.
const MaxStopFiles = 20

// stop checks the working tree one last time for the turn (recording what
// changed since the last check, attributed to the session), then decides
// the stop from the ledger. It blocks, up to StopBlockLimit times in a
// row, recording each block:
//   - while the session's last prompt has no report or rejection after it;
//   - in block mode, while files the session changed by any route are in
//     scope of rules it has not loaded (the stop gate): the reason names
//     the files, the rules and the memload call. In warn mode that list is
//     context for the agent instead.
//   - in block mode, while the checks of the rules in scope of the files
//     the session changed find fault with its whole change, unless the
//     turn was closed with agentrejected and a reason: the reason names
//     each finding's file, line, constraint and message. In warn mode
//     they are context for the agent instead.
func stop(ctx context.Context, r Request, pl place, hd *node.Handle, in adapt.Input) (Outcome, error) {
	got, touched := stopCheck(ctx, r, pl, hd, in)
	facts, err := hd.SessionCompliance(ctx, in.SessionID)
	switch {
	case errors.Is(err, projections.ErrNotFound):
		facts = projections.Compliance{}
	case err != nil:
		return Outcome{}, fmt.Errorf("read the session's facts: %w", err)
	}
	var files, missing, lines []string
	mode := pl.ws.Config.Enforce.Effective()
	if mode != workspace.EnforceOff && len(touched) > 0 {
		g, err := hd.Gate(ctx, node.GateQuery{Session: in.SessionID, Paths: touched})
		if err != nil {
			return Outcome{}, fmt.Errorf("read the rules in scope: %w", err)
		}
		seen := map[string]bool{}
		for _, m := range g.Missing {
			missing = append(missing, m.Item.ID)
			lines = append(lines, fmt.Sprintf("%s (%s)", m.Item.ID, m.Item.Path))
			for _, f := range m.Matched {
				if !seen[f] && len(files) < MaxStopFiles {
					seen[f] = true
					files = append(files, f)
				}
			}
		}
	}
	gate := len(missing) > 0 && mode == workspace.EnforceBlock
	run := stopChecks(ctx, r, pl, hd, in, got)
	found, more := run.findingLines()
	held := len(found) > 0 && mode == workspace.EnforceBlock && !facts.Rejected
	blocks := (facts.Pending || gate || held) && facts.BlocksInRow < StopBlockLimit
	if len(run.files) > 0 {
		cd := run.data(r.Host.Name, events.ViaStop, checkUnloaded(run, missing))
		cd.Rejected, cd.Worktree = facts.Rejected && len(found) > 0, pl.worktree
		switch {
		case held && blocks:
			cd.Decision = events.GateDeny
		case len(found) > 0 && mode == workspace.EnforceWarn && !facts.Rejected:
			cd.Decision = events.GateWarn
		}
		if err := record(ctx, hd, in.SessionID, events.TypeCheck, cd); err != nil {
			fmt.Fprintf(os.Stderr, "clumsies hook stop: %v\n", err)
		}
	}
	switch {
	case !facts.Pending && !gate && !held:
		var context string
		if len(missing) > 0 { // warn mode: say it, let go
			context = adapt.StopGateReason(in.SessionID, files, lines, memloadArgs(missing), false)
		}
		if len(found) > 0 && mode == workspace.EnforceWarn && !facts.Rejected {
			context = adapt.StopCheckReason(in.SessionID, found, more, context, false)
		}
		return Outcome{Answer: adapt.Answer{Context: context}}, nil
	case !blocks:
		return Outcome{Note: fmt.Sprintf("session %s stops after %d blocked stops: %s", in.SessionID, facts.BlocksInRow, stopWhy(facts.Pending, files, held))}, nil
	}
	data := events.StopBlockedData{Host: r.Host.Name, Blocks: int(facts.BlocksInRow) + 1, Limit: StopBlockLimit}
	reason := adapt.StopReason(in.SessionID)
	if gate {
		data.Files, data.Missing = files, missing
		reason = adapt.StopGateReason(in.SessionID, files, lines, memloadArgs(missing), facts.Pending)
	}
	if held {
		gateReason := ""
		if gate {
			gateReason = reason
		}
		reason = adapt.StopCheckReason(in.SessionID, found, more, gateReason, facts.Pending)
	}
	if gate || held {
		reason = wrongEnforce(pl.ws) + reason // block mode may be the wrong table's
	}
	if err := record(ctx, hd, in.SessionID, events.TypeStopBlocked, data); err != nil {
		return Outcome{}, err // not recorded, not blocked: the bound must hold
	}
	return Outcome{Answer: adapt.Answer{Block: true, Reason: reason}}, nil
}

// stopChecks runs every check of the rules in scope of the files the
// session changed in this tree on the session's whole change of each
// (from where the file stood before its first change in the session),
// command checks included where [enforce] checks = "run". It is best
// effort: a run that fails is said on stderr.
func stopChecks(ctx context.Context, r Request, pl place, hd *node.Handle, in adapt.Input, got node.TreeReply) checkRun {
	var files []changed
	for _, p := range got.TouchedHere {
		before, known := got.TouchedBefore[p]
		files = append(files, changed{path: p, before: before, known: known})
	}
	run, err := runChecks(ctx, hd, pl, files, pl.ws.Config.Enforce.RunsCommands())
	if err != nil {
		fmt.Fprintf(os.Stderr, "clumsies hook stop: run the rules' checks: %v\n", err)
	}
	newTexts(pl).prune()
	return run
}

// checkUnloaded are the ids of the rules whose checks ran that the
// session had not loaded, of missing (the stop gate's).
func checkUnloaded(run checkRun, missing []string) []string {
	var out []string
	for _, r := range run.rules {
		if slices.Contains(missing, r.ID) {
			out = append(out, r.ID)
		}
	}
	return out
}

// stopWhy says what a stop let go had left undone.
func stopWhy(pending bool, files []string, findings bool) string {
	var why []string
	if pending {
		why = append(why, "without a report")
	}
	if len(files) > 0 {
		why = append(why, "with rules not loaded for "+strings.Join(files, ", "))
	}
	if findings {
		why = append(why, "with findings of the rules' checks standing")
	}
	return strings.Join(why, ", ")
}

// stopCheck records what changed in the working tree since the last check
// (an opaque command's writes, a background process's) as the session's,
// and returns the owner's reply with every path the session changed (for
// the stop gate). It is best effort: a check that fails is said on
// stderr.
func stopCheck(ctx context.Context, r Request, pl place, hd *node.Handle, in adapt.Input) (node.TreeReply, []string) {
	got, err := tree(ctx, hd, pl, node.TreeStop, in.SessionID, "", nil)
	if err != nil {
		fmt.Fprintf(os.Stderr, "clumsies hook stop: check the working tree: %v\n", err)
		return node.TreeReply{}, nil
	}
	data := editData(r.Host.Name, "", pl, got.Changes, nil)
	if len(data.Paths) > 0 {
		data.Via, data.Candidates, data.Manual, data.Transcript = events.ViaStop, got.Candidates, manual(r.Host.Name), in.Transcript
		err := fillRules(ctx, hd, in.SessionID, &data)
		if err == nil {
			err = record(ctx, hd, in.SessionID, events.TypeFileEdit, data)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "clumsies hook stop: %v\n", err)
		}
	}
	return got, inside(got.Touched)
}

// memloadArgs is the memload call's arguments for ids, as JSON.
func memloadArgs(ids []string) string {
	known := make(map[string]string, len(ids))
	for _, id := range ids {
		known[id] = ""
	}
	b, _ := json.Marshal(map[string]any{"ids": ids, "knownHashes": known})
	return string(b)
}
