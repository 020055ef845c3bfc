package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/clumsies/clumsies/proof/commitcheck"
	"github.com/clumsies/clumsies/proof/gitrepo"
	"github.com/clumsies/clumsies/views/dash"
)

// DefaultCommits is how many of the branch's last commits the
// dashboard's commits list looks at unless asked for another number.
const DefaultCommits = 30

// commitPage answers the dashboard's commit pages (dash.PageCommit and
// dash.PageCommits) from the whole ledger and the git repository holding
// the workspace, as clumsies check without --key does: each page reads
// the ledger once. What the repository cannot answer (no repository, no
// git, an unknown revision) is a reply that says so and what to do.
func (o *owner) commitPage(ctx context.Context, req dash.Request) (dash.Reply, error) {
	repo, err := gitrepo.Open(ctx, o.n.WS.Root)
	if errors.Is(err, gitrepo.ErrNoGit) {
		return dash.ErrorReply(http.StatusConflict, "git is not installed (not on PATH): the commit pages read the repository with git; install git, then reload the page"), nil
	}
	if err != nil {
		return dash.ErrorReply(http.StatusConflict, fmt.Sprintf("the workspace in %s is not in a git repository: the commit pages judge git commits; run git init there and commit, then reload the page", o.n.WS.Root)), nil
	}
	var ch commitcheck.Change
	if req.Page == dash.PageCommit {
		// Before the ledger is read: a bad revision is answered at once.
		if ch, err = commitcheck.Resolve(ctx, repo, req.ID); err != nil {
			return commitError(err, req.ID)
		}
	}
	e, err := commitcheck.ReadEvidence(ctx, o.n.Log, o.n.WS.ID(), repo.Prefix)
	if err != nil {
		return dash.Reply{}, err
	}
	var v any
	if req.Page == dash.PageCommit {
		v, err = commitcheck.Judge(ctx, o.n.WS, repo, e, ch)
		if err != nil {
			return dash.Reply{}, fmt.Errorf("judge %s: %w", req.ID, err)
		}
	} else {
		n := req.N
		if n <= 0 {
			n = DefaultCommits
		}
		v, err = commitcheck.List(ctx, repo, e, n, commitcheck.Filter{Session: req.Session, Rule: req.Rule})
		if errors.Is(err, gitrepo.ErrUnknownRev) {
			return dash.ErrorReply(http.StatusNotFound, "the repository has no commit yet: commit, then reload the page"), nil
		}
		if err != nil {
			return dash.Reply{}, fmt.Errorf("list the commits: %w", err)
		}
	}
	body, err := json.Marshal(v)
	if err != nil {
		return dash.Reply{}, fmt.Errorf("encode the %s page: %w", req.Page, err)
	}
	return dash.Reply{Status: http.StatusOK, Body: body}, nil
}

// commitError is the reply to a revision or range the repository does
// not know, or that is malformed; other errors are the owner's.
func commitError(err error, arg string) (dash.Reply, error) {
	switch {
	case errors.Is(err, gitrepo.ErrUnknownRev):
		return dash.ErrorReply(http.StatusNotFound, fmt.Sprintf("%v: name a commit git knows (git log --oneline shows them), or a range such as main..HEAD", err)), nil
	case errors.Is(err, commitcheck.ErrBadRange):
		return dash.ErrorReply(http.StatusBadRequest, err.Error()), nil
	}
	return dash.Reply{}, fmt.Errorf("read %s: %w", arg, err)
}
