package content

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Reader reads single content files of a tree by their source paths, with
// the rules of Scan: what ScanIndexed left out, the bodies.
type Reader struct {
	s *scanner
}

// OpenReader opens the content tree at root for Read. Close it after use.
func OpenReader(root string) (*Reader, error) {
	dir, err := filepath.Abs(root)
	if err == nil {
		dir, err = filepath.EvalSymlinks(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("content: open %s: %w", root, err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("content: open %s: %w", root, err)
	}
	return &Reader{s: &scanner{root: r, dir: dir}}, nil
}

// Close releases the tree.
func (r *Reader) Close() error { return r.s.root.Close() }

// Read reads the content file at source (File.Source) as it is now, body
// and hash included, checked as Scan checks it. A file that is gone or no
// longer content is a *FileError wrapping fs.ErrNotExist. Read does not
// check hard links: that needs the whole tree (Scan).
func (r *Reader) Read(source string) (File, error) {
	s := r.s
	// One file at a time: nothing of the reads before is kept (the count
	// of names is for Scan's check of hard links, which Read does not
	// make, and would grow with every file read).
	s.files = s.files[:0]
	clear(s.names)
	s.linked = s.linked[:0]
	info, err := s.root.Lstat(filepath.FromSlash(source))
	if err != nil {
		return File{}, &FileError{Path: source, Err: err}
	}
	if err := s.visit(source, fs.FileInfoToDirEntry(info), nil); err != nil {
		var fe *FileError
		if errors.As(err, &fe) {
			return File{}, err
		}
		return File{}, &FileError{Path: source, Err: err}
	}
	if len(s.files) != 1 {
		return File{}, &FileError{Path: source, Err: fmt.Errorf("no longer a content file: %w", fs.ErrNotExist)}
	}
	return s.files[0], nil
}
