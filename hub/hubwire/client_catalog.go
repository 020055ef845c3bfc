package hubwire

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// teamPath is the API path of team's catalog.
func teamPath(team string) string { return "/api/teams/" + url.PathEscape(team) }

// PushCatalog makes team's catalog hold exactly files (admin).
func (c *Client) PushCatalog(ctx context.Context, team string, files []CatalogFile) (PushResult, error) {
	var res PushResult
	if err := c.call(ctx, http.MethodPost, teamPath(team)+"/catalog", PushRequest{Files: files}, &res); err != nil {
		return PushResult{}, fmt.Errorf("push team %s's catalog: %w", team, err)
	}
	return res, nil
}

// Manifest returns team's catalog without bodies (admin or member of
// team).
func (c *Client) Manifest(ctx context.Context, team string) (Manifest, error) {
	var m Manifest
	if err := c.call(ctx, http.MethodGet, teamPath(team)+"/manifest", nil, &m); err != nil {
		return Manifest{}, fmt.Errorf("read team %s's catalog: %w", team, err)
	}
	return m, nil
}

// TeamObject returns object id of team's catalog with its body (admin or
// member of team).
func (c *Client) TeamObject(ctx context.Context, team, id string) (CatalogObject, error) {
	var o CatalogObject
	if err := c.call(ctx, http.MethodGet, teamPath(team)+"/objects/"+url.PathEscape(id), nil, &o); err != nil {
		return CatalogObject{}, fmt.Errorf("read %s of team %s's catalog: %w", id, team, err)
	}
	return o, nil
}

// TeamHistory returns the revisions of object id of team's catalog (admin
// or member of team).
func (c *Client) TeamHistory(ctx context.Context, team, id string) ([]CatalogObject, error) {
	var hs []CatalogObject
	if err := c.call(ctx, http.MethodGet, teamPath(team)+"/objects/"+url.PathEscape(id)+"/history", nil, &hs); err != nil {
		return nil, fmt.Errorf("read the history of %s of team %s's catalog: %w", id, team, err)
	}
	return hs, nil
}
