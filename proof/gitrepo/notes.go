package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrNoNote means a commit has no note on the notes ref asked.
var ErrNoNote = errors.New("gitrepo: no note")

// AddNote stores body as the note of commit on the notes ref (a full ref
// such as refs/notes/clumsies-attest), replacing the note it had.
func (r *Repo) AddNote(ctx context.Context, ref, commit string, body []byte) error {
	if _, err := r.git(ctx, body, "notes", "--ref="+ref, "add", "-f", "-F", "-", commit); err != nil {
		return fmt.Errorf("store the note of %s on %s: %w", commit, ref, err)
	}
	return nil
}

// Note returns the note of commit on the notes ref, or an error wrapping
// ErrNoNote when it has none.
func (r *Repo) Note(ctx context.Context, ref, commit string) ([]byte, error) {
	list, err := r.git(ctx, nil, "notes", "--ref="+ref, "list", commit)
	if err != nil || strings.TrimSpace(string(list)) == "" {
		return nil, fmt.Errorf("%w of %s on %s", ErrNoNote, commit, ref)
	}
	out, err := r.git(ctx, nil, "notes", "--ref="+ref, "show", commit)
	if err != nil {
		return nil, fmt.Errorf("read the note of %s on %s: %w", commit, ref, err)
	}
	return out, nil
}
