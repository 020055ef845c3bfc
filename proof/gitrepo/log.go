package gitrepo

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Logged is one commit of a log: a Commit with its author and the first
// line of its message.
type Logged struct {
	Commit
	Author  string
	Subject string
}

// Log returns the last n commits rev reaches (first parents and merged
// ones, newest first, as git log lists them). It returns an error
// wrapping ErrUnknownRev when rev names no commit (HEAD of a repository
// with no commit yet).
func (r *Repo) Log(ctx context.Context, rev string, n int) ([]Logged, error) {
	c, err := r.Resolve(ctx, rev)
	if err != nil {
		return nil, err
	}
	out, err := r.git(ctx, nil, "log", "-n", strconv.Itoa(n), "--format=%H%x1f%P%x1f%ct%x1f%an%x1f%s%x1e", c.ID, "--")
	if err != nil {
		return nil, fmt.Errorf("list the commits of %s: %w", rev, err)
	}
	var cs []Logged
	for rec := range strings.SplitSeq(string(out), "\x1e") {
		f := strings.Split(strings.TrimLeft(rec, "\n"), "\x1f")
		if len(f) != 5 {
			continue
		}
		secs, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("read the time of %s: %w", f[0], err)
		}
		cs = append(cs, Logged{Commit: Commit{ID: f[0], Parents: strings.Fields(f[1]), Time: time.Unix(secs, 0).UTC()}, Author: f[3], Subject: f[4]})
	}
	return cs, nil
}

// Branch returns the name of the branch HEAD is on, "" when HEAD is
// detached.
func (r *Repo) Branch(ctx context.Context) string {
	out, err := r.git(ctx, nil, "symbolic-ref", "--short", "-q", "HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
