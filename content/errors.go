package content

import (
	"errors"
	"strconv"
)

// ErrUnsafePath is wrapped by the error CleanPath returns for a path it
// rejects; the message names the rule the path broke.
var ErrUnsafePath = errors.New("content: unsafe path")

// Sentinels that Scan wraps in a *FileError naming the offending file. Their
// messages tell the workspace owner what to do about it.
var (
	// ErrNotUTF8 means a content file is not valid UTF-8.
	ErrNotUTF8 = errors.New("content: not valid UTF-8; save it as UTF-8")
	// ErrTooLarge means a content file is larger than MaxFileSize.
	ErrTooLarge = errors.New("content: larger than 1 MiB; split it into smaller files")
	// ErrUnsafeName means a content file's name could not be used as a
	// public path (see CleanPath). The error Scan returns says which rule
	// the name broke and unwraps to ErrUnsafeName.
	ErrUnsafeName = errors.New("content: unsafe file name; rename it")
	// ErrOutsideRoot means a symlink in the content tree points outside the
	// content root.
	ErrOutsideRoot = errors.New("content: symlink points outside the content root; replace it with the file itself")
	// ErrHardLink means a content file has hard links that are not content
	// files of the tree: its other names may lie outside the content root.
	ErrHardLink = errors.New("content: hard link to a file outside the content tree; replace it with a copy")
)

// FileError records a problem with one file of the content tree.
type FileError struct {
	Path string // source path relative to the content root, slash separated
	Err  error
}

// Error returns "<Path>: <Err>". A path with characters that would not print
// as themselves (control characters, invalid UTF-8, backslashes) is quoted.
func (e *FileError) Error() string {
	return printablePath(e.Path) + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }

// unsafeNameError is ErrUnsafeName with the rule the name broke.
type unsafeNameError struct{ reason string }

func (e *unsafeNameError) Error() string {
	return "content: unsafe file name (" + e.reason + "); rename it"
}

func (e *unsafeNameError) Unwrap() error { return ErrUnsafeName }

// printablePath returns p as is when quoting would change nothing but the
// quotes, and quoted otherwise.
func printablePath(p string) string {
	q := strconv.Quote(p)
	if q[1:len(q)-1] == p {
		return p
	}
	return q
}
