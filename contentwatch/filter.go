package contentwatch

import (
	"strings"

	"github.com/clumsies/clumsies/content"
)

// relevant says whether a notification about name, an entry of the
// watched folder dir ("" for dir itself), can be about the content tree
// under root: directly under root only META_PROMPT.md, rules and context
// are; hidden entries (editors' swap files, .git) never are.
func relevant(root, dir, name string) bool {
	switch {
	case name == "":
		return true // the folder itself moved or went
	case strings.HasPrefix(name, "."):
		return false
	case dir == root:
		return content.InTree(name)
	}
	return true
}
