package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// ErrNotRepo means the folder is in no git repository.
var ErrNotRepo = errors.New("gitrepo: not in a git repository")

// ErrUnknownRev means a revision names no commit of the repository.
var ErrUnknownRev = errors.New("gitrepo: unknown revision")

// ErrNoGit means the git program is not installed (not on PATH). Open
// returns it wrapped together with ErrNotRepo.
var ErrNoGit = errors.New("gitrepo: git is not installed (not on PATH)")

// Repo is the git repository holding a folder.
type Repo struct {
	// Top is the repository's top folder (its working tree's root).
	Top string
	// Prefix is the folder Open was given, relative to Top with a
	// trailing "/" ("" at the top): what a path relative to that folder
	// needs in front to be a path of the repository.
	Prefix string
}

// Open finds the repository holding dir. It returns an error wrapping
// ErrNotRepo when there is none, or when git is not installed (then it
// wraps ErrNoGit too).
func Open(ctx context.Context, dir string) (*Repo, error) {
	out, err := run(ctx, dir, nil, "rev-parse", "--show-toplevel", "--show-prefix")
	if errors.Is(err, exec.ErrNotFound) {
		return nil, fmt.Errorf("%w: %w", ErrNotRepo, ErrNoGit)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrNotRepo, dir, err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	r := &Repo{Top: lines[0]}
	if len(lines) > 1 {
		r.Prefix = lines[1]
	}
	return r, nil
}

// git runs git in the repository's top folder with stdin (nil: none) and
// returns its standard output.
func (r *Repo) git(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	return run(ctx, r.Top, stdin, args...)
}

func run(ctx context.Context, dir string, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return out, fmt.Errorf("git %s: %s", args[0], msg)
		}
		return out, fmt.Errorf("git %s: %w", args[0], err)
	}
	return out, nil
}
