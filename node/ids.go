package node

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/clumsies/clumsies/catalog"
)

// idRule is the version of the rule that gives objects their ids; a
// publish mark of another version says nothing about the ids, so the
// first plan of a new version compares every id (catalog.Migrate).
const idRule = 1

// idsPath returns the path of the tracked ids file, .clumsies/ids.
func (n *Node) idsPath() string { return filepath.Join(n.WS.MetaDir(), catalog.IDsFile) }

// readIDs reads the ids file; a missing file records no id. It returns
// the ids and the digest of the file's text ("" when missing).
func (n *Node) readIDs() (catalog.IDs, string, error) {
	b, err := os.ReadFile(n.idsPath())
	if errors.Is(err, fs.ErrNotExist) {
		return catalog.IDs{}, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("read the ids file: %w", err)
	}
	ids, err := catalog.ParseIDs(string(b))
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", n.idsPath(), err)
	}
	return ids, idsDigest(b), nil
}

func idsDigest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// recordIDs makes the ids file record the ids of the manifest that are
// not their paths' (catalog.IDsOf), and removes it when there are none.
// A file that already says so is left alone. An object the plan left its
// old id because of an open draft (catalog.Migrate) is not recorded
// unless the file records it already: its id changes once the draft is
// closed.
func (n *Node) recordIDs() error {
	cur, _, err := n.readIDs()
	if err != nil {
		return err
	}
	pub, _ := n.Store.Published()
	want := catalog.IDsOf(pub)
	for src, id := range want {
		if _, had := cur[src]; !had && n.Store.HasOpenDraft(id) {
			delete(want, src)
		}
	}
	text := want.Format()
	path := n.idsPath()
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if text == "" {
			return nil
		}
	case err != nil:
		return fmt.Errorf("read the ids file: %w", err)
	case string(old) == text:
		return nil
	}
	if text == "" {
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("remove the ids file: %w", err)
		}
		return nil
	}
	if err := os.WriteFile(path+".tmp", []byte(text), 0o644); err != nil {
		return fmt.Errorf("write the ids file: %w", err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return fmt.Errorf("write the ids file: %w", err)
	}
	return nil
}
