package contentwatch

import (
	"crypto/sha256"
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/clumsies/clumsies/content"
)

// fingerprint sums the names of the folders, and the names, modes, sizes
// and modification times of the files, in the content tree under root, following a symlinked root
// and symlinked files (whose targets' times count). Two equal fingerprints
// mean nothing a scan reads has changed, save an edit that keeps a file's
// size within the file system's time resolution (notifications catch
// those). A missing tree has the fingerprint of an empty one.
func fingerprint(root string) [sha256.Size]byte {
	h := sha256.New()
	var buf [8]byte
	add := func(rel string, info fs.FileInfo) {
		h.Write([]byte(rel))
		h.Write([]byte{0})
		binary.LittleEndian.PutUint64(buf[:], uint64(info.Mode()))
		h.Write(buf[:])
		binary.LittleEndian.PutUint64(buf[:], uint64(info.Size()))
		h.Write(buf[:])
		binary.LittleEndian.PutUint64(buf[:], uint64(info.ModTime().UnixNano()))
		h.Write(buf[:])
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if !content.InTree(e.Name()) {
			continue
		}
		top := filepath.Join(root, e.Name())
		filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // vanished meanwhile: the next look sees it
			}
			if path != top && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			if d.IsDir() {
				// A folder counts by its name only: its time changes
				// with hidden files (an editor's swap file) too.
				h.Write([]byte(rel))
				h.Write([]byte{1})
				return nil
			}
			info, err := os.Stat(path) // through a symlink: its target's time
			if err != nil {
				info, err = d.Info()
			}
			if err == nil {
				add(rel, info)
			}
			return nil
		})
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// dirs returns the folders of the content tree under root that a watch
// must cover: root itself, then rules/ and context/ and every folder below
// them, hidden ones left out.
func dirs(root string) []string {
	out := []string{root}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if !e.IsDir() || !content.InTree(e.Name()) {
			continue
		}
		filepath.WalkDir(filepath.Join(root, e.Name()), func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil
			}
			if strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			out = append(out, path)
			return nil
		})
	}
	return out
}
