package commitcheck

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/clumsies/clumsies/proof/attest"
	"github.com/clumsies/clumsies/proof/gitrepo"
)

// ErrBadRange means an argument is neither a revision nor BASE..HEAD.
var ErrBadRange = errors.New("commitcheck: not a revision or a range")

// Change is what a REV or a BASE..HEAD names: the change from Base to
// Head and the files it changed, as Attribute takes them. Base is the
// zero Commit for a root commit.
type Change struct {
	Base, Head gitrepo.Commit
	Target     attest.Target
}

// Resolve reads arg: BASE..HEAD is HEAD's change against where it forked
// from BASE (git diff BASE...HEAD: what BASE gained since is not the
// change's); REV alone is that commit's change against its first parent.
// Errors wrap gitrepo.ErrUnknownRev for a revision git does not know and
// ErrBadRange for anything else malformed.
func Resolve(ctx context.Context, repo *gitrepo.Repo, arg string) (Change, error) {
	var ch Change
	baseRev, headRev, isRange := strings.Cut(arg, "..")
	if !isRange {
		headRev = arg
	}
	if headRev == "" || (isRange && (baseRev == "" || strings.HasPrefix(headRev, "."))) {
		return ch, fmt.Errorf("%w: %q: give a commit (such as HEAD~1) or a range as BASE..HEAD (two dots), such as main..HEAD", ErrBadRange, arg)
	}
	head, err := repo.Resolve(ctx, headRev)
	if err != nil {
		return ch, err
	}
	ch.Head = head
	switch {
	case isRange:
		if ch.Base, err = repo.MergeBase(ctx, baseRev, head.ID); err != nil {
			return ch, err
		}
	case len(head.Parents) > 0:
		if ch.Base, err = repo.Resolve(ctx, head.Parents[0]); err != nil {
			return ch, err
		}
	}
	ch.Target, err = changesOf(ctx, repo, attest.Target{Commit: head.ID, CommitTime: head.Time, Base: ch.Base.ID, BaseTime: ch.Base.Time})
	return ch, err
}

// Target is what attribution takes of commit c: its changes against its
// first parent and both commits' times.
func Target(ctx context.Context, repo *gitrepo.Repo, c gitrepo.Commit) (attest.Target, error) {
	t := attest.Target{Commit: c.ID, CommitTime: c.Time}
	if len(c.Parents) > 0 {
		p, err := repo.Resolve(ctx, c.Parents[0])
		if err != nil {
			return t, err
		}
		t.Base, t.BaseTime = p.ID, p.Time
	}
	return changesOf(ctx, repo, t)
}

func changesOf(ctx context.Context, repo *gitrepo.Repo, t attest.Target) (attest.Target, error) {
	cs, err := repo.Changes(ctx, t.Base, t.Commit)
	if err != nil {
		return t, err
	}
	for _, c := range cs {
		t.Changes = append(t.Changes, attest.Change{Path: c.Path, Base: c.Base, Blob: c.Blob})
	}
	return t, nil
}
