package hub

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/evidence"
)

// evidenceRow is a session's evidence at the hub (the v key): the
// workspace's definitions (package evidence), folded from the node's
// events in its ledger's order, with the member and the last day the
// session was seen, for the stats' window.
type evidenceRow struct {
	Member string `json:"member,omitempty"`
	Last   string `json:"last"`
	evidence.Row
}

// foldEvidence folds one successful event of session (an
// attest.file_edit, attest.load or attest.refer, by fold) into the
// session's evidence row, in b. Events outside a session are left out, as
// the workspace does.
func foldEvidence(b *pebble.Batch, at counter, session string, fold func(r *evidence.Row)) error {
	if session == "" {
		return nil
	}
	k := keyEvidence(at.Team, at.Workspace, at.Node, session)
	var row evidenceRow
	v, closer, err := b.Get(k)
	switch {
	case err == nil:
		err = json.Unmarshal(v, &row)
		closer.Close()
		if err != nil {
			return fmt.Errorf("read the evidence of session %s: %w", session, err)
		}
	case !errors.Is(err, pebble.ErrNotFound):
		return err
	}
	fold(&row.Row)
	row.Member, row.Last = at.Member, max(row.Last, at.Day)
	out, err := json.Marshal(row)
	if err != nil {
		return err
	}
	return b.Set(k, out, nil)
}

// markScoped keeps whether a published rule or workflow declares the
// paths it applies to (its front matter), as the workspace's catalog does.
func markScoped(b *pebble.Batch, team, ws string, d events.PublishData) error {
	k := keyScoped(team, ws, d.ID)
	if paths, _ := content.ParsePaths(d.Body); len(paths) > 0 {
		return b.Set(k, nil, nil)
	}
	return b.Delete(k, nil)
}

// catalogFacts is what the hub knows of one workspace's published rules,
// for evidence (evidence.Facts).
type catalogFacts struct {
	published map[string]bool
	scoped    map[string]bool
}

func (c catalogFacts) IsRule(id string) bool { return c.published[id] }
func (c catalogFacts) Scoped(id string) bool { return c.scoped[id] }
