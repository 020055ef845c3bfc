package workspace

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A workspace has a name for people, beside its id for machines: the
// stats, the dashboard and the hub show it where they would otherwise
// show only ws-<32 hex>. Init names a workspace after its folder (the
// repository's); the name is config.toml's name, which anyone may edit.

// MaxName bounds a workspace name, in bytes.
const MaxName = 64

// Name returns the workspace's name: config.toml's, else the name of the
// workspace's folder.
func (w *Workspace) Name() string {
	if w.Config.Name != "" {
		return w.Config.Name
	}
	return nameOf(w.Root)
}

// nameOf is the name Init gives a workspace at root: the folder's name,
// cut to a valid name ("workspace" when nothing of it is).
func nameOf(root string) string {
	n := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, filepath.Base(root))
	n = strings.TrimSpace(n)
	for len(n) > MaxName {
		_, size := utf8.DecodeLastRuneInString(n)
		n = n[:len(n)-size]
	}
	if n == "" || n == "." || n == string(filepath.Separator) {
		return "workspace"
	}
	return n
}

// checkName says what is wrong with a name from config.toml.
func checkName(n string) error {
	switch {
	case len(n) > MaxName:
		return fmt.Errorf("name is %d bytes long; keep it to %d", len(n), MaxName)
	case !utf8.ValidString(n):
		return fmt.Errorf("name %q is not valid UTF-8", n)
	case strings.TrimSpace(n) != n:
		return fmt.Errorf("name %q starts or ends with a space; remove it", n)
	case strings.ContainsFunc(n, unicode.IsControl):
		return fmt.Errorf("name %q holds a control character; remove it", n)
	}
	return nil
}
