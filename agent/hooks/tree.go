package hooks

import (
	"context"
	"os"

	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// tree asks the workspace's owner to do op on pl's working tree for the
// session's call (see node.TreeOp). The owner keeps the tree's snapshot;
// where the owner is another process (serve), it also watches the tree,
// so that a check stats only what changed. The state folder is never
// looked at.
func tree(ctx context.Context, hd *node.Handle, pl place, op node.TreeOp, session, call string, paths []string) (node.TreeReply, error) {
	return hd.Tree(ctx, node.TreeRequest{Op: op, Root: pl.tree, Prune: []string{workspace.DirName + "/state"},
		Session: session, Call: call, Paths: paths, Watch: !hd.IsOwner()})
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
