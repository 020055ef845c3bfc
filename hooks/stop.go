package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/clumsies/clumsies/adapt"
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
func stop(ctx context.Context, r Request, pl place, hd *node.Handle, in adapt.Input) (Outcome, error) {
	touched := stopCheck(ctx, r, pl, hd, in)
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
	switch {
	case !facts.Pending && !gate:
		if len(missing) > 0 { // warn mode: say it, let go
			return Outcome{Answer: adapt.Answer{Context: adapt.StopGateReason(in.SessionID, files, lines, memloadArgs(missing), false)}}, nil
		}
		return Outcome{}, nil
	case facts.BlocksInRow >= StopBlockLimit:
		return Outcome{Note: fmt.Sprintf("session %s stops after %d blocked stops: %s", in.SessionID, facts.BlocksInRow, stopWhy(facts.Pending, files))}, nil
	}
	data := events.StopBlockedData{Host: r.Host.Name, Blocks: int(facts.BlocksInRow) + 1, Limit: StopBlockLimit}
	reason := adapt.StopReason(in.SessionID)
	if gate {
		data.Files, data.Missing = files, missing
		reason = adapt.StopGateReason(in.SessionID, files, lines, memloadArgs(missing), facts.Pending)
	}
	if err := record(ctx, hd, in.SessionID, events.TypeStopBlocked, data); err != nil {
		return Outcome{}, err // not recorded, not blocked: the bound must hold
	}
	return Outcome{Answer: adapt.Answer{Block: true, Reason: reason}}, nil
}

// stopWhy says what a stop let go had left undone.
func stopWhy(pending bool, files []string) string {
	var why []string
	if pending {
		why = append(why, "without a report")
	}
	if len(files) > 0 {
		why = append(why, "with rules not loaded for "+strings.Join(files, ", "))
	}
	return strings.Join(why, ", ")
}

// stopCheck records what changed in the working tree since the last check
// (an opaque command's writes, a background process's) as the session's,
// and returns every path the session changed (for the stop gate). It is
// best effort: a check that fails is said on stderr.
func stopCheck(ctx context.Context, r Request, pl place, hd *node.Handle, in adapt.Input) []string {
	got, err := tree(ctx, hd, pl, node.TreeStop, in.SessionID, "", nil)
	if err != nil {
		fmt.Fprintf(os.Stderr, "clumsies hook stop: check the working tree: %v\n", err)
		return nil
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
	return inside(got.Touched)
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
