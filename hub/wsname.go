package hub

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxWorkspaceName bounds the name a node gives its workspace, in bytes,
// as the workspace's config.toml does.
const maxWorkspaceName = 64

// checkWorkspaceName refuses a workspace name the hub would not show as
// it is: too long, not UTF-8, with a control character or an edge space.
// A name is a label for people, not an identity: nothing is decided by
// it, and two workspaces may share one.
func checkWorkspaceName(n string) error {
	switch {
	case len(n) > maxWorkspaceName:
		return fmt.Errorf("%w: workspace name is %d bytes long; keep name in .clumsies/config.toml to %d", ErrInvalid, len(n), maxWorkspaceName)
	case !utf8.ValidString(n) || strings.ContainsFunc(n, unicode.IsControl) || strings.TrimSpace(n) != n:
		return fmt.Errorf("%w: workspace name %q: use printable text without edge spaces (name in .clumsies/config.toml)", ErrInvalid, n)
	}
	return nil
}
