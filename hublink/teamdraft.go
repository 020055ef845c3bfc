package hublink

import (
	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// A team draft is a draft of an object of the team's catalog, or a new
// file in a team folder: it is reviewed at the hub.

// Facts completes the facts of a draft decision with the team's catalog:
// a team object is the published object of its id.
func (l *Link) Facts(f *catalog.DraftFacts, q catalog.DraftQuery) {
	if l.team == nil || q.ID == "" || f.Object != nil {
		return
	}
	if o, ok := l.team.Get(q.ID); ok {
		f.Object = &catalog.Target{ID: o.ID, Kind: o.Kind, Path: o.Path, Hash: o.Hash}
	}
}

// TeamDraft reports whether draft id is of the team's content: of a team
// object, or a new file in a team folder.
func (l *Link) TeamDraft(id string, open *catalog.Draft) bool {
	if l.team == nil {
		return false
	}
	if _, ok := l.team.Get(id); ok {
		return true
	}
	return open != nil && open.Op == events.DraftOpCreate && l.inTeamFolder(open)
}

// inTeamFolder reports whether create draft d makes a file in a team
// folder: a folder (group) that holds objects of the team's catalog in the
// draft's namespace. Such a file is a team object once accepted at the hub.
func (l *Link) inTeamFolder(d *catalog.Draft) bool {
	group := content.GroupOf(d.Path)
	if group == "" {
		return false
	}
	ns := catalog.NamespaceOfResource(d.Resource)
	for _, o := range l.team.Objects() {
		if o.Group == group && content.NamespaceOf(o.Kind) == ns {
			return true
		}
	}
	return false
}
