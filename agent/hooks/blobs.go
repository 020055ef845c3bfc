package hooks

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/clumsies/clumsies/treecheck"
)

// Bounds of what the checks read.
const (
	// maxCheckedFile bounds the size of a file the checks read: a larger
	// one is not checked.
	maxCheckedFile = 1 << 20
	// gitWait bounds one git command that reads a file's earlier content.
	gitWait = 2 * time.Second
	// keptFor is how long a kept content stays in the state folder.
	keptFor = 48 * time.Hour
)

// texts reads the contents the checks compare: a file as it is now, and
// a file as it was (by its git blob id) from the contents the hooks kept
// in the state folder (each content a check read, so that the next
// change of the file has its before) or else from the git repository of
// the tree.
type texts struct {
	tree string // the working tree's root
	kept string // the folder of kept contents
}

func newTexts(pl place) texts {
	return texts{tree: pl.tree, kept: filepath.Join(pl.ws.StateDir(), "checked")}
}

// now reads the file at path (relative to the tree) as text, with its
// blob id; ok is false for a file that is gone, larger than
// maxCheckedFile, or not text (not UTF-8, or holding a NUL byte).
func (t texts) now(path string) (text, id string, ok bool) {
	f, err := os.Open(filepath.Join(t.tree, filepath.FromSlash(path)))
	if err != nil {
		return "", "", false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() > maxCheckedFile {
		return "", "", false
	}
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, maxCheckedFile+1)); err != nil {
		return "", "", false
	}
	b := buf.Bytes()
	if len(b) > maxCheckedFile || !isText(b) {
		return "", "", false
	}
	return string(b), treecheck.BlobID(b), true
}

// gone reports whether the file at path (relative to the tree) is gone.
func (t texts) gone(path string) bool {
	_, err := os.Lstat(filepath.Join(t.tree, filepath.FromSlash(path)))
	return errors.Is(err, fs.ErrNotExist)
}

// keep stores text under its blob id, for a later change's before. It is
// best effort.
func (t texts) keep(id, text string) {
	p := t.keptPath(id)
	if _, err := os.Stat(p); err == nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.WriteString(text)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), p) != nil {
		os.Remove(tmp.Name())
	}
}

// blob returns the content whose git blob id is id: kept, or read from
// the tree's git repository; ok is false when neither has it.
func (t texts) blob(ctx context.Context, id string) (string, bool) {
	if !isBlobID(id) {
		return "", false
	}
	if b, err := os.ReadFile(t.keptPath(id)); err == nil && treecheck.BlobID(b) == id {
		return string(b), true
	}
	return t.git(ctx, "cat-file", "blob", id)
}

// head returns path's content in the tree's HEAD commit.
func (t texts) head(ctx context.Context, path string) (string, bool) {
	return t.git(ctx, "show", "HEAD:"+path)
}

// before is path's content before a change: the blob id's where known
// ("" a file that did not exist), else HEAD's, else nothing (ok false:
// every line of the file counts as added).
func (t texts) before(ctx context.Context, path, id string, known bool) (string, bool) {
	if known {
		if id == "" {
			return "", true
		}
		if s, ok := t.blob(ctx, id); ok {
			return s, true
		}
	}
	return t.head(ctx, path)
}

// git runs a git command that prints a file's content in the tree,
// bounded in time and size; ok is false when it fails or the tree is no
// git repository.
func (t texts) git(ctx context.Context, args ...string) (string, bool) {
	if _, err := os.Stat(filepath.Join(t.tree, ".git")); err != nil {
		return "", false
	}
	ctx, cancel := context.WithTimeout(ctx, gitWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", t.tree}, args...)...)
	var out bytes.Buffer
	cmd.Stdout = &limitWriter{w: &out, n: maxCheckedFile + 1}
	if err := cmd.Run(); err != nil || out.Len() > maxCheckedFile || !isText(out.Bytes()) {
		return "", false
	}
	return out.String(), true
}

// prune removes the kept contents older than keptFor. It is best effort.
func (t texts) prune() {
	dirs, _ := os.ReadDir(t.kept)
	cut := time.Now().Add(-keptFor)
	for _, d := range dirs {
		sub := filepath.Join(t.kept, d.Name())
		files, _ := os.ReadDir(sub)
		for _, f := range files {
			if fi, err := f.Info(); err == nil && fi.ModTime().Before(cut) {
				os.Remove(filepath.Join(sub, f.Name()))
			}
		}
	}
}

func (t texts) keptPath(id string) string { return filepath.Join(t.kept, id[:2], id[2:]) }

// isBlobID reports whether id is 40 lowercase hex digits.
func isBlobID(id string) bool {
	return len(id) == 40 && strings.Trim(id, "0123456789abcdef") == ""
}

// isText reports whether b reads as text: UTF-8 without a NUL byte.
func isText(b []byte) bool { return utf8.Valid(b) && bytes.IndexByte(b, 0) < 0 }

// limitWriter writes at most n bytes to w and drops the rest.
type limitWriter struct {
	w io.Writer
	n int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	keep := min(len(p), l.n)
	if keep > 0 {
		l.w.Write(p[:keep])
		l.n -= keep
	}
	return len(p), nil
}
