package projections

import (
	"context"

	"github.com/clumsies/clumsies/catalog"
)

// DraftStatusOf returns the draft state of an id the read models do not
// publish themselves (an object of the team's catalog): its open draft
// (nil if none), or the status and reason of its last closed draft when it
// has no open one ("" when it never had a draft). It returns ErrClosed
// after Close and ctx.Err() if ctx has ended.
func (s *Store) DraftStatusOf(ctx context.Context, id string) (*catalog.Draft, catalog.DraftStatus, string, error) {
	if err := ctx.Err(); err != nil {
		return nil, "", "", err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return nil, "", "", ErrClosed
	}
	if d, ok := s.st.drafts.byID[id]; ok {
		dc := d.Draft
		return &dc, dc.Status, "", nil
	}
	if c := s.st.drafts.last[id]; c != nil {
		return nil, c.Status, c.Reason, nil
	}
	return nil, "", "", nil
}
