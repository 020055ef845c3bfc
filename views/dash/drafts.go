package dash

import (
	"context"
	"errors"
	"fmt"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// Drafts is the API's list of open drafts: GET /api/drafts.
type Drafts struct {
	Items []Draft `json:"items"`
}

// Draft is an open draft with its diff against the published body.
type Draft struct {
	ID          string          `json:"id"`
	Resource    events.Resource `json:"resource"`
	Op          events.DraftOp  `json:"op"`
	Path        string          `json:"path,omitempty"`
	NewPath     string          `json:"newPath,omitempty"`
	Description string          `json:"description,omitempty"`
	SessionID   string          `json:"sessionId,omitempty"`
	Seq         uint64          `json:"seq"`
	// Updated is the time of the draft's last event, the one Seq names.
	Updated string `json:"updated"`
	// Status is draft or in_review (catalog.DraftStatus): the list holds
	// open drafts only.
	Status catalog.DraftStatus `json:"status"`
	// Stale is set when the published body changed since the draft was
	// based on it.
	Stale bool `json:"stale"`
	// Diff turns the published body into the draft's: every line of both,
	// in order, each kept, added or removed. Empty for a rename.
	Diff []DiffLine `json:"diff"`
}

func drafts(ctx context.Context, src Source, evs Events) (Drafts, error) {
	all, err := src.Drafts()
	if err != nil {
		return Drafts{}, err
	}
	out := Drafts{Items: []Draft{}}
	for _, d := range all {
		it := Draft{
			ID: d.ID, Resource: d.Resource, Op: d.Op, Path: d.Path, NewPath: d.NewPath, Description: d.Description,
			SessionID: d.SessionID, Seq: d.Seq, Status: d.Status, Diff: []DiffLine{},
		}
		last, err := evs.Get(ctx, d.Seq)
		if err != nil {
			return Drafts{}, fmt.Errorf("read the last event of draft %s: %w", d.ID, err)
		}
		it.Updated = last.Time
		var old string
		if d.Op != events.DraftOpCreate {
			o, err := src.Object(d.ID)
			switch {
			case errors.Is(err, projections.ErrNotFound):
			case err != nil:
				return Drafts{}, err
			default:
				old = o.Body
				it.Stale = d.BaseHash != "" && d.BaseHash != o.Hash
			}
		}
		switch d.Op {
		case events.DraftOpCreate, events.DraftOpUpdate:
			it.Diff = Diff(old, d.Body)
		case events.DraftOpDelete:
			it.Diff = Diff(old, "")
		}
		out.Items = append(out.Items, it)
	}
	return out, nil
}
