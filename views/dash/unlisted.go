package dash

import (
	"context"
	"errors"
	"fmt"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/projections"
)

// Where a rule the ledger counts refs of comes from, when the
// repository's catalog does not publish it (RuleRow.Source).
const (
	// SourceRemoved is a rule the repository published and removed since:
	// its refs stay, its page is a read-only history.
	SourceRemoved = "removed"
	// SourceTeam is a rule of the team's catalog at the hub.
	SourceTeam = "team"
	// SourceUnknown is an id with refs that neither names.
	SourceUnknown = "unknown"
)

// TeamRules names the rules of the team's catalog at the hub. A Source
// that implements it (the owner's, when the workspace joined a hub) has
// its team rules listed with their path; without it they are listed by
// id.
type TeamRules interface {
	TeamRule(ctx context.Context, id string) (path string, kind content.Kind, ok bool, err error)
}

// unlisted is a rule with refs that the repository's catalog does not
// publish: removed, a team rule or unknown.
type unlisted struct {
	ID, Path, Source string
	Kind             content.Kind
}

// unlistedRules returns the rules and workflows with refs that the
// repository's catalog does not publish (the Rules page lists them, so
// that its rows add up to the overview's refs).
func unlistedRules(ctx context.Context, src Source) ([]unlisted, error) {
	var out []unlisted
	for _, u := range src.Usage() {
		if u.Path != "" || u.Refs == 0 {
			continue
		}
		r, err := unlistedRule(ctx, src, u.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// unlistedRule says where rule id, which the catalog does not publish,
// comes from: its last published path when it was removed, the team's
// path when it is a team rule.
func unlistedRule(ctx context.Context, src Source, id string) (unlisted, error) {
	pubs, err := src.Publishes(ctx, id)
	if err != nil && !errors.Is(err, projections.ErrNotFound) {
		return unlisted{}, fmt.Errorf("read the publish history of %s: %w", id, err)
	}
	if len(pubs) > 0 {
		path := pubs[len(pubs)-1].Path
		return unlisted{ID: id, Path: path, Kind: content.KindOfRulePath(path), Source: SourceRemoved}, nil
	}
	if team, ok := src.(TeamRules); ok {
		path, kind, found, err := team.TeamRule(ctx, id)
		if err != nil {
			return unlisted{}, fmt.Errorf("read team rule %s: %w", id, err)
		}
		if found {
			return unlisted{ID: id, Path: path, Kind: kind, Source: SourceTeam}, nil
		}
	}
	return unlisted{ID: id, Path: id, Source: SourceUnknown}, nil
}
