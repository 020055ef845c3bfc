package hooks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"time"

	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/treecheck"
	"github.com/clumsies/clumsies/workspace"
)

// treeWait bounds the wait for another hook's check of the same tree.
const treeWait = 3 * time.Second

// openTree opens the snapshot of pl's working tree, kept in the
// workspace's state folder (one per tree: the workspace's own and each
// worktree's).
func openTree(pl place) (*treecheck.Store, error) {
	dir := filepath.Join(pl.ws.StateDir(), "tree")
	if pl.worktree != "" {
		sum := sha256.Sum256([]byte(pl.tree))
		dir = filepath.Join(dir, "worktree-"+hex.EncodeToString(sum[:8]))
	}
	return treecheck.Open(dir, treeWait)
}

// checkTree returns the files of pl's working tree whose content changed
// since the last check. The state folder is never walked. Where another
// process owns the workspace (serve), it asks the owner which paths its
// watch of the tree saw change and stats only those; otherwise, or when
// the owner cannot tell, it walks the tree.
func checkTree(ctx context.Context, hd *node.Handle, st *treecheck.Store, pl place) ([]treecheck.Change, error) {
	prune := []string{workspace.DirName + "/state"}
	var d treecheck.Dirty
	if hd != nil && !hd.IsOwner() {
		epoch, seq := st.Point()
		if got, err := hd.TreeDirty(ctx, node.TreeQuery{Root: pl.tree, Epoch: epoch, Seq: seq, Prune: prune}); err == nil {
			d = got
		}
	}
	return st.CheckSince(pl.tree, prune, d)
}

// manual reports whether a hook of host runs outside the host: Claude
// Code and Gemini CLI put their project folder in every hook's
// environment; a run without it is someone's, by hand.
func manual(host string) bool {
	switch host {
	case "claude-code":
		return os.Getenv("CLAUDE_PROJECT_DIR") == ""
	case "gemini-cli":
		return os.Getenv("GEMINI_PROJECT_DIR") == ""
	}
	return false
}
