package dash

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/dayrange"
	"github.com/clumsies/clumsies/projections"
)

// NotLoadedSession is a session of a range with an edit in a rule's
// scope that never loaded the rule, with its host and model as its host's
// hooks named them.
type NotLoadedSession struct {
	SessionID string `json:"sessionId"`
	First     string `json:"first"`
	Host      string `json:"host,omitempty"`
	Model     string `json:"model,omitempty"`
	// EditsInScope counts its edits in the rule's scope.
	EditsInScope uint64 `json:"editsInScope"`
}

// MaxNotLoaded bounds the sessions a rule's page lists as in its scope
// without loading it.
const MaxNotLoaded = 50

// notLoaded lists the sessions first seen in rg that edited files in the
// scope of rule id and never loaded it, newest first, at most
// MaxNotLoaded; more reports whether some were left out.
func notLoaded(src Source, id string, rg dayrange.Range) (out []NotLoadedSession, more bool, err error) {
	ss := SessionsIn(src.Sessions(), rg)
	first := make(map[string]string, len(ss))
	for _, s := range ss {
		first[s.ID] = s.First
	}
	out = []NotLoadedSession{}
	for _, e := range EvidenceOf(src.Evidence(), ss) {
		for _, r := range e.Rules {
			if r.ID == id && r.InScope > 0 && !r.Loaded {
				out = append(out, NotLoadedSession{SessionID: e.ID, First: first[e.ID], Host: e.Host, EditsInScope: r.InScope})
			}
		}
	}
	slices.SortFunc(out, func(a, b NotLoadedSession) int {
		return cmp.Or(strings.Compare(b.First, a.First), strings.Compare(a.SessionID, b.SessionID))
	})
	if more = len(out) > MaxNotLoaded; more {
		out = out[:MaxNotLoaded]
	}
	for i := range out {
		c, err := src.SessionCompliance(out[i].SessionID)
		if errors.Is(err, projections.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, false, fmt.Errorf("read the host of session %s: %w", out[i].SessionID, err)
		}
		out[i].Host, out[i].Model = cmp.Or(c.Host, out[i].Host), c.Model
	}
	return out, more, nil
}
