package hub

import (
	"fmt"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// acceptVerdict decides the accept of review r on the team's catalog
// objs: accepted with the change of its object, or conflicted when the
// object is no longer at the draft's base revision or another object
// holds the path it writes. An object already written by this review (a
// hub that stopped before it recorded the outcome) is accepted as it is.
func acceptVerdict(r hubwire.Review, reviewer string, objs []hubwire.CatalogObject) (verdict, error) {
	var obj hubwire.CatalogObject
	for _, o := range objs {
		if o.ID == r.DraftID {
			obj = o
		}
	}
	current := obj.Revision
	vd := verdict{typ: events.TypeReviewAccept, out: outcomeOf(r, reviewer, "", current)}
	switch holder := pathHolder(objs, r); {
	case obj.AcceptedReview == r.ID && r.ID != "":
		vd.out.Revision = current
		return vd, nil
	case current != r.BaseRevision:
		vd.typ, vd.out.Reason = events.TypeReviewConflict, conflictReason(r, current)
		return vd, nil
	case holder != "":
		vd.typ = events.TypeReviewConflict
		vd.out.Reason = fmt.Sprintf("the team's catalog already has %s at %s; stage the change at another path", holder, targetPath(r))
		return vd, nil
	}
	change, err := acceptedChange(r, objs)
	if err != nil {
		return vd, err
	}
	if change == nil {
		vd.out.Revision = current // the catalog holds the change already
	}
	vd.change = change
	return vd, nil
}

// acceptedChange plans the draft's change of the team's catalog objs as a
// push of the catalog with the change applied would (catalog.Plan), so
// that a new object gets its id where a pushed one does; nil when the
// catalog holds it already.
func acceptedChange(r hubwire.Review, objs []hubwire.CatalogObject) (*catalogChange, error) {
	tree := make([]content.File, 0, len(objs)+1)
	published := make([]catalog.Published, 0, len(objs))
	for _, o := range objs {
		published = append(published, catalog.Published{ID: o.ID, Kind: o.Kind, Path: o.Path, Hash: o.Hash})
		f := content.File{Kind: o.Kind, Path: o.Path, Body: o.Body, Hash: o.Hash}
		if o.ID == r.DraftID {
			switch r.Op {
			case events.DraftOpDelete:
				continue
			case events.DraftOpUpdate:
				f.Body, f.Hash = r.Body, content.Hash([]byte(r.Body))
			case events.DraftOpRename:
				f.Path = r.NewPath
				if f.Kind == content.KindRule || f.Kind == content.KindWorkflow {
					f.Kind = content.KindOfRulePath(f.Path)
				}
			}
		}
		tree = append(tree, fileOf(f))
	}
	switch r.Op {
	case events.DraftOpCreate:
		kind := content.KindContext
		if r.Resource == events.ResourceRule {
			kind = content.KindOfRulePath(r.Path)
		}
		tree = append(tree, fileOf(content.File{Kind: kind, Path: r.Path, Body: r.Body, Hash: content.Hash([]byte(r.Body))}))
	case events.DraftOpUpdate, events.DraftOpRename, events.DraftOpDelete:
	default:
		return nil, fmt.Errorf("%w: a %s draft is not reviewed at the hub", ErrInvalid, r.Op)
	}
	plan, err := catalog.Plan(planWorkspace, tree, published, nil)
	if err != nil {
		return nil, fmt.Errorf("plan the accept of %s: %w", r.ID, err)
	}
	switch len(plan) {
	case 0:
		return nil, nil
	case 1:
	default:
		return nil, fmt.Errorf("plan the accept of %s: %d changes, want the draft's one", r.ID, len(plan))
	}
	typ, d, err := pushedChange(plan[0])
	if err != nil {
		return nil, err
	}
	d.By = "review " + r.ID
	if typ == events.TypeHubCatalogPublish {
		d.AcceptedReview = r.ID
	}
	return &catalogChange{typ: typ, data: d}, nil
}

// fileOf completes f, a file of a team's catalog, with what its path
// gives.
func fileOf(f content.File) content.File {
	f.Name, f.Group = content.NameOf(f.Path), content.GroupOf(f.Path)
	return f
}

func conflictReason(r hubwire.Review, current uint64) string {
	if current == 0 {
		return fmt.Sprintf("team object %s changed while the draft was accepted (base revision %d)", r.DraftID, r.BaseRevision)
	}
	return fmt.Sprintf("team object %s changed since the draft was made: it is at revision %d, the draft is based on revision %d; stage the change again on the current object", r.DraftID, current, r.BaseRevision)
}

// targetPath is the path a create or rename draft writes.
func targetPath(r hubwire.Review) string {
	if r.Op == events.DraftOpRename {
		return r.NewPath
	}
	return r.Path
}

// pathHolder returns the id of the team object among objs that holds the
// path a create or rename draft writes, in its namespace; "" when it is
// free.
func pathHolder(objs []hubwire.CatalogObject, r hubwire.Review) string {
	if r.Op != events.DraftOpCreate && r.Op != events.DraftOpRename {
		return ""
	}
	ns := content.NSContext
	if r.Resource == events.ResourceRule {
		ns = content.NSRule
	}
	for _, o := range objs {
		if o.Path == targetPath(r) && o.ID != r.DraftID && content.NamespaceOf(o.Kind) == ns {
			return o.ID
		}
	}
	return ""
}
