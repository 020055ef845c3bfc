package repodraft

import (
	"fmt"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// Plan is what applying a draft does to the content tree. Paths are
// source paths: slash separated, relative to the content root
// (rules/go/STYLE.md, context/arch/ADR.md, META_PROMPT.md).
type Plan struct {
	Op       events.DraftOp `json:"op"`
	Path     string         `json:"path"`               // the file the draft changes; for a rename, where it moves from
	NewPath  string         `json:"newPath,omitempty"`  // rename: where the file moves to
	Body     string         `json:"body,omitempty"`     // create and update: the new content of Path
	BaseHash string         `json:"baseHash,omitempty"` // update, rename, delete: the hash the file must still have
}

// PlanOf returns the plan of draft d. It refuses a draft whose paths are
// not safe paths of its kind, which artifact never records but an
// imported ledger might hold.
func PlanOf(d catalog.Draft) (Plan, error) {
	p := Plan{Op: d.Op, BaseHash: d.BaseHash}
	var err error
	if p.Path, err = sourcePath(d.Resource, d.Path); err != nil {
		return Plan{}, err
	}
	switch d.Op {
	case events.DraftOpCreate, events.DraftOpUpdate:
		p.Body = d.Body
	case events.DraftOpRename:
		if p.NewPath, err = sourcePath(d.Resource, d.NewPath); err != nil {
			return Plan{}, err
		}
	case events.DraftOpDelete:
	default:
		return Plan{}, fmt.Errorf("draft %s has an unknown operation %q", d.ID, d.Op)
	}
	if d.Op != events.DraftOpCreate && d.BaseHash == "" {
		return Plan{}, fmt.Errorf("draft %s (%s) has no base hash to check the file against", d.ID, d.Op)
	}
	return p, nil
}

// sourcePath maps the public path of a draft of resource r to its source
// path under the content root.
func sourcePath(r events.Resource, public string) (string, error) {
	if r == events.ResourceMPF {
		return content.MetaPromptPath, nil
	}
	clean, err := content.CleanPath(public)
	if err != nil || clean != public {
		return "", fmt.Errorf("draft path %q is not a safe content path", public)
	}
	kind := content.KindContext
	if r == events.ResourceRule {
		kind = content.KindOfRulePath(public)
	}
	src := content.SourcePath(kind, public)
	if k, _, ok := content.Classify(src); !ok || content.NamespaceOf(k) != content.NamespaceOf(kind) {
		return "", fmt.Errorf("draft path %q is not a content file of a %s", public, r)
	}
	return src, nil
}
