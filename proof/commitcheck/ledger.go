package commitcheck

import (
	"context"
	"fmt"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/proof/attest"
	"github.com/clumsies/clumsies/proof/gitrepo"
	"github.com/clumsies/clumsies/workspace"
)

// SourceLedger is Result.Source of a change judged from the workspace's
// ledger.
const SourceLedger = "ledger"

// Replayer reads a workspace's ledger from a sequence on (a node.Handle,
// or the owner's log).
type Replayer interface {
	Replay(ctx context.Context, from uint64, fn func(events.Event) error) error
}

// ReadEvidence reads the whole ledger of the workspace wsID into the
// evidence of what agents wrote; prefix is the workspace's folder in the
// repository (gitrepo.Repo.Prefix).
func ReadEvidence(ctx context.Context, r Replayer, wsID, prefix string) (*attest.Evidence, error) {
	e := attest.NewEvidence(wsID, prefix)
	if err := r.Replay(ctx, 1, func(ev events.Event) error { return e.Add(ev) }); err != nil {
		return nil, fmt.Errorf("read the ledger: %w", err)
	}
	return e, nil
}

// Judge checks ch against the workspace's policy with the evidence e:
// each file attributed (agent, mixed, human), its sessions, the rules in
// scope, loaded and referenced, the gate's decisions, the problems, and
// the findings of the rules' pattern checks on the lines ch added.
func Judge(ctx context.Context, ws *workspace.Workspace, repo *gitrepo.Repo, e *attest.Evidence, ch Change) (attest.Result, error) {
	p := attest.Attribute(e, ch.Target)
	r := attest.Check(ch.Base.ID, ch.Head.ID, string(ws.Config.Enforce.Effective()), SourceLedger, p.Files, p.Sessions)
	if err := AddRuleFindings(ctx, ws, repo, ch.Base.ID, ch.Head.ID, &r); err != nil {
		return r, err
	}
	return r, nil
}
