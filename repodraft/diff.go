package repodraft

import (
	"fmt"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/textdiff"
)

func hashOf(body string) string { return content.Hash([]byte(body)) }

// Diff returns the change draft d makes to the published object (nil when
// it has none): a unified diff of the draft's body against the published
// body, with the source paths as names; for a create the whole new file,
// for a delete the whole removal, for a rename the move (and, had the body
// changed, that change).
func Diff(d catalog.Draft, published *projections.Object) (string, error) {
	p, err := PlanOf(d)
	if err != nil {
		return "", err
	}
	old := ""
	if published != nil {
		old = published.Body
	}
	switch p.Op {
	case events.DraftOpCreate:
		return textdiff.Unified("", "b/"+p.Path, "", p.Body), nil
	case events.DraftOpUpdate:
		return textdiff.Unified("a/"+p.Path, "b/"+p.Path, old, p.Body), nil
	case events.DraftOpDelete:
		return textdiff.Unified("a/"+p.Path, "", old, ""), nil
	}
	head := fmt.Sprintf("rename from %s\nrename to %s\n", p.Path, p.NewPath)
	return head + textdiff.Unified("a/"+p.Path, "b/"+p.NewPath, old, old), nil
}

// conflictDiff is the diff a conflict records: from the file as it is now
// to what the draft would make it, so the person sees what applying would
// still change.
func conflictDiff(p Plan, t tree, published *projections.Object) string {
	switch p.Op {
	case events.DraftOpCreate, events.DraftOpUpdate:
		return textdiff.Unified(nameIf(t.at.exists, "a/"+p.Path), "b/"+p.Path, string(t.at.data), p.Body)
	case events.DraftOpDelete:
		return textdiff.Unified("a/"+p.Path, "", string(t.at.data), "")
	}
	// A rename moves the published body: show the file that is in its way,
	// or the changed file it would move, against that body.
	moved := ""
	if published != nil {
		moved = published.Body
	}
	if t.to.exists {
		return textdiff.Unified("a/"+p.NewPath, "b/"+p.NewPath, string(t.to.data), moved)
	}
	return textdiff.Unified(nameIf(t.at.exists, "a/"+p.Path), "b/"+p.NewPath, string(t.at.data), moved)
}

func nameIf(ok bool, name string) string {
	if ok {
		return name
	}
	return ""
}
