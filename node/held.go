package node

import (
	"strings"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
)

// HeldFile is a content file a publish held back: it could not be
// published (Reason says why and what to do), so the agents keep what was
// last published at its path, if anything.
type HeldFile struct {
	Path   string `json:"path"`   // source path under the content root: "rules/go/BAD.md"
	Reason string `json:"reason"` // "not valid UTF-8; save it as UTF-8"
}

// heldFile describes the bad file fe names; the reason drops the
// "content: " of the content package's errors, as it follows the path.
func heldFile(fe *content.FileError) HeldFile {
	return HeldFile{Path: fe.Path, Reason: strings.TrimPrefix(fe.Err.Error(), "content: ")}
}

// keepHeld returns files with, for each held-back file that has a
// published object at its public path, that object as it is published, so
// that a plan neither changes nor removes it, and the held files described.
func keepHeld(files []content.File, bad []*content.FileError, pub []catalog.Published) ([]content.File, []HeldFile) {
	if len(bad) == 0 {
		return files, nil
	}
	held := make([]HeldFile, 0, len(bad))
	at := make(map[string]catalog.Published, len(bad))
	for _, fe := range bad {
		held = append(held, heldFile(fe))
		if kind, public, ok := content.Classify(fe.Path); ok {
			at[string(kind)+"\x00"+public] = catalog.Published{}
		}
	}
	for _, p := range pub {
		k := string(p.Kind) + "\x00" + p.Path
		if _, ok := at[k]; ok {
			at[k] = p
		}
	}
	for _, fe := range bad {
		kind, public, ok := content.Classify(fe.Path)
		if p := at[string(kind)+"\x00"+public]; ok && p.ID != "" {
			files = append(files, content.File{
				Source: fe.Path, Kind: kind, Path: public,
				Name: content.NameOf(public), Group: content.GroupOf(public), Hash: p.Hash,
			})
		}
	}
	return files, held
}
