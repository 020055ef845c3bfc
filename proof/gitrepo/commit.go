package gitrepo

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Commit is one commit: its id, its parents' and its committer time.
type Commit struct {
	ID      string
	Parents []string
	Time    time.Time
}

// Resolve returns the commit rev names (a branch, a tag, HEAD~2, an id).
// It returns an error wrapping ErrUnknownRev when rev names none.
func (r *Repo) Resolve(ctx context.Context, rev string) (Commit, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return Commit{}, fmt.Errorf("%w: %q", ErrUnknownRev, rev)
	}
	out, err := r.git(ctx, nil, "show", "-s", "--format=%H %ct %P", rev+"^{commit}", "--")
	if err != nil {
		return Commit{}, fmt.Errorf("%w: %q (%v)", ErrUnknownRev, rev, err)
	}
	f := strings.Fields(string(out))
	if len(f) < 2 {
		return Commit{}, fmt.Errorf("%w: %q: git printed %q", ErrUnknownRev, rev, out)
	}
	secs, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return Commit{}, fmt.Errorf("read the time of %s: %w", rev, err)
	}
	return Commit{ID: f[0], Time: time.Unix(secs, 0).UTC(), Parents: f[2:]}, nil
}

// Range returns the commits of base..head, oldest first: those head
// reaches and base does not.
func (r *Repo) Range(ctx context.Context, base, head string) ([]Commit, error) {
	b, err := r.Resolve(ctx, base)
	if err != nil {
		return nil, err
	}
	h, err := r.Resolve(ctx, head)
	if err != nil {
		return nil, err
	}
	out, err := r.git(ctx, nil, "rev-list", "--reverse", b.ID+".."+h.ID, "--")
	if err != nil {
		return nil, fmt.Errorf("list %s..%s: %w", base, head, err)
	}
	var cs []Commit
	for _, id := range strings.Fields(string(out)) {
		c, err := r.Resolve(ctx, id)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// MergeBase returns the best common ancestor of the commits a and b: what
// a branch b forked from a has in common with it, however far a moved
// since. It returns an error wrapping ErrUnknownRev when they have none.
func (r *Repo) MergeBase(ctx context.Context, a, b string) (Commit, error) {
	out, err := r.git(ctx, nil, "merge-base", a, b)
	if err != nil {
		return Commit{}, fmt.Errorf("%w: %s and %s have no common ancestor (%v)", ErrUnknownRev, a, b, err)
	}
	return r.Resolve(ctx, strings.TrimSpace(string(out)))
}
