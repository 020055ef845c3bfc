package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/proof/attest"
	"github.com/clumsies/clumsies/proof/commitcheck"
	"github.com/clumsies/clumsies/proof/gitrepo"
	"github.com/clumsies/clumsies/workspace"
)

// notesRef is the notes ref the attestations are stored on.
const notesRef = "refs/notes/clumsies-attest"

// commitsArg reads the REV or BASE..HEAD argument of attest and verify
// commit: the commits it names, oldest first (REV alone: that commit).
func commitsArg(ctx context.Context, repo *gitrepo.Repo, arg string) ([]gitrepo.Commit, error) {
	if base, head, ok := strings.Cut(arg, ".."); ok {
		if base == "" || head == "" || strings.HasPrefix(head, ".") {
			return nil, fmt.Errorf("%w: %q: give a range as BASE..HEAD (two dots), such as main..HEAD", errUsage, arg)
		}
		cs, err := repo.Range(ctx, base, head)
		if errors.Is(err, gitrepo.ErrUnknownRev) {
			return nil, fmt.Errorf("%w: %v; name commits git knows (git log --oneline shows them)", errUsage, err)
		}
		if err == nil && len(cs) == 0 {
			return nil, fmt.Errorf("%w: %s has no commits: %s already holds %s", errUsage, arg, base, head)
		}
		return cs, err
	}
	c, err := repo.Resolve(ctx, arg)
	if errors.Is(err, gitrepo.ErrUnknownRev) {
		return nil, fmt.Errorf("%w: %v; name a commit git knows (git log --oneline shows them)", errUsage, err)
	}
	return []gitrepo.Commit{c}, err
}

// openCommits finds the workspace, the git repository holding it and
// the commits arg names (commitsArg).
func openCommits(ctx context.Context, f *wsFlags, arg string) (*workspace.Workspace, *gitrepo.Repo, []gitrepo.Commit, error) {
	ws, err := f.workspace()
	if err != nil {
		return nil, nil, nil, err
	}
	repo, err := gitrepo.Open(ctx, ws.Root)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w; attestations are of git commits: run this in a git repository with git installed", err)
	}
	commits, err := commitsArg(ctx, repo, arg)
	if err != nil {
		return nil, nil, nil, err
	}
	return ws, repo, commits, nil
}

// readEvidence reads the workspace's ledger into the evidence of what
// agents wrote. It returns nil, nil when this clone has no ledger (a CI
// checkout: the state folder is never committed).
func readEvidence(ctx context.Context, m *Main, f *wsFlags, ws *workspace.Workspace, repo *gitrepo.Repo) (*attest.Evidence, error) {
	if _, err := os.Stat(ws.StateDir()); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	h, err := f.attach(ctx, m, node.Options{LinkQuiet: true})
	if err != nil {
		return nil, err
	}
	defer h.Close()
	return commitcheck.ReadEvidence(ctx, h, ws.ID(), repo.Prefix)
}
