package hublink

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/projections"
)

// Where an item comes from, as memdisc shows it.
const (
	SourceRepo = "repo"
	SourceTeam = "team"
)

// teamItem is a team object as memdisc and memload show it.
func teamItem(o hubwire.CatalogObject, withBody bool) projections.Item {
	it := projections.Item{ID: o.ID, Kind: o.Kind, Path: o.Path, Name: o.Name, Group: o.Group, Hash: o.Hash,
		Description: o.Description, Published: true, Source: SourceTeam, Revision: o.Revision}
	if o.Kind == content.KindRule || o.Kind == content.KindWorkflow {
		it.Paths, _ = content.ParsePaths(o.Body) // checked when the hub accepted it
	}
	if withBody {
		it.Body = o.Body
		if o.Kind == content.KindRule || o.Kind == content.KindWorkflow {
			it.Constraints = content.ParseConstraints(o.Name, o.Body)
		}
	}
	return it
}

// shadowKey is what a team object and a repository object must share to
// collide: the namespace and the path.
func shadowKey(k content.Kind, path string) string {
	return string(content.NamespaceOf(k)) + "\x00" + path
}

// teamByPath indexes the team objects by shadowKey.
func teamByPath(objs []hubwire.CatalogObject) map[string]hubwire.CatalogObject {
	m := make(map[string]hubwire.CatalogObject, len(objs))
	for _, o := range objs {
		m[shadowKey(o.Kind, o.Path)] = o
	}
	return m
}

// View lays the team catalog over a view: a team object's id gives the
// team object, with the state of its draft. ok is false when id is no
// team object.
func (l *Link) View(ctx context.Context, id string, s *projections.Store) (projections.Item, bool, error) {
	if l.team == nil {
		return projections.Item{}, false, nil
	}
	o, ok := l.team.Get(id)
	if !ok {
		return projections.Item{}, false, nil
	}
	it := teamItem(o, true)
	return it, true, teamDraft(ctx, &it, s)
}

// teamDraft lays the draft state of a team object over its item: the
// status of its open draft (draft, in_review) or of its last closed one.
// The item keeps the catalog's body and path: a team object changes only
// when its draft is accepted at the hub.
func teamDraft(ctx context.Context, it *projections.Item, s *projections.Store) error {
	d, status, reason, err := s.DraftStatusOf(ctx, it.ID)
	if err != nil {
		return fmt.Errorf("read the draft of team object %s: %w", it.ID, err)
	}
	if d != nil {
		it.HasDraft, it.DraftOp, it.DraftBaseHash = true, d.Op, d.BaseHash
	}
	it.DraftStatus, it.DraftReason = status, reason
	return nil
}

// Shadow fills in ShadowedBy of a repository item at a team object's
// path.
func (l *Link) Shadow(it *projections.Item) {
	if l.team == nil || it.Source == SourceTeam {
		return
	}
	for _, o := range l.team.Objects() {
		if shadowKey(o.Kind, o.Path) == shadowKey(it.Kind, it.Path) {
			it.ShadowedBy = o.ID
			return
		}
	}
}

// List merges the team catalog into a listing of the repository's items:
// team objects that match f join the list, and a repository item at a
// team object's path leaves it (the team object wins and names it in
// Shadows). The order stays the inventory's: namespace, then path.
func (l *Link) List(ctx context.Context, items []projections.Item, f projections.Filter, s *projections.Store) ([]projections.Item, error) {
	if l.team == nil {
		return items, nil
	}
	objs := l.team.Objects()
	if len(objs) == 0 {
		return items, nil
	}
	byPath := teamByPath(objs)
	shadows := map[string]string{} // team id -> repository id
	out := make([]projections.Item, 0, len(items)+len(objs))
	for _, it := range items {
		if o, ok := byPath[shadowKey(it.Kind, it.Path)]; ok {
			shadows[o.ID] = it.ID
			continue
		}
		out = append(out, it)
	}
	matches := f.Matcher()
	for _, o := range objs {
		if full, ok := l.team.Get(o.ID); ok {
			o = full // the body says the object's paths (Objects leaves bodies out)
		}
		it := teamItem(o, false)
		if !matches(&it) {
			continue
		}
		it.Shadows = shadows[o.ID]
		if err := teamDraft(ctx, &it, s); err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	slices.SortStableFunc(out, func(a, b projections.Item) int {
		return cmp.Or(cmp.Compare(content.NamespaceOf(a.Kind).Rank(), content.NamespaceOf(b.Kind).Rank()), strings.Compare(a.Path, b.Path))
	})
	return out, nil
}
