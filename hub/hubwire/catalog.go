package hubwire

import (
	"encoding/json"
	"fmt"

	"github.com/clumsies/clumsies/content"
)

// The names of a team's catalog. The catalog is a key-value bucket in the
// hub's account, one key per object id, with history: the bucket's stream
// sequence is the catalog's revision, an entry's revision the object's.
// A node of the team mirrors the bucket over its leaf link.

// CatalogBucket is the key-value bucket of team's catalog.
func CatalogBucket(team string) string { return "CATALOG_" + team }

// CatalogStream is the stream behind CatalogBucket.
func CatalogStream(team string) string { return "KV_" + CatalogBucket(team) }

// CatalogDeliverPrefix is where the hub delivers to node's mirrors (of its
// team's catalog and of the outcomes of its drafts): a prefix of the
// node's own, so that no node receives another's deliveries.
func CatalogDeliverPrefix(nodeID string) string { return "catalog.deliver." + nodeID }

// CatalogObject is one object of a team's catalog, as its entry holds it.
type CatalogObject struct {
	ID          string       `json:"id"`
	Kind        content.Kind `json:"kind"`
	Path        string       `json:"path"`
	Name        string       `json:"name"`
	Group       string       `json:"group,omitempty"`
	Hash        string       `json:"hash"`
	Description string       `json:"description,omitempty"`
	Body        string       `json:"body,omitempty"`
	// AcceptedReview is the review whose accept wrote this revision.
	AcceptedReview string `json:"acceptedReview,omitempty"`
	// Revision is the entry's revision (the catalog's revision that wrote
	// it); set when read, never stored.
	Revision uint64 `json:"revision,omitempty"`
	// Removed marks a revision that removed the object (History only).
	Removed bool `json:"removed,omitempty"`
}

// CatalogFile is one file of a content tree pushed to a team's catalog:
// its path under the content root and its exact bytes.
type CatalogFile struct {
	Source string `json:"source"`
	Body   string `json:"body"`
}

// PushRequest is the body of POST /api/teams/{team}/catalog.
type PushRequest struct {
	Files []CatalogFile `json:"files"`
}

// CatalogChange is one object a push wrote.
type CatalogChange struct {
	ID       string       `json:"id"`
	Kind     content.Kind `json:"kind"`
	Path     string       `json:"path"`
	Revision uint64       `json:"revision"`
}

// PushResult is what a push did: the catalog's revision after it, and the
// objects it published (new or changed) and removed. Nothing changed means
// both lists are empty and nothing was written.
type PushResult struct {
	Team      string          `json:"team"`
	Revision  uint64          `json:"revision"`
	Published []CatalogChange `json:"published"`
	Removed   []CatalogChange `json:"removed"`
	// Skipped are files a team catalog does not hold (the meta prompt is
	// each workspace's own).
	Skipped []string `json:"skipped,omitempty"`
}

// Manifest is a team's catalog without bodies, at one revision.
type Manifest struct {
	Team     string          `json:"team"`
	Revision uint64          `json:"revision"`
	Objects  []CatalogObject `json:"objects"`
}

// DecodeCatalogEntry reads an entry of a catalog bucket written at
// revision rev.
func DecodeCatalogEntry(value []byte, rev uint64) (CatalogObject, error) {
	var o CatalogObject
	if err := json.Unmarshal(value, &o); err != nil {
		return o, fmt.Errorf("decode a catalog entry: %w", err)
	}
	o.Revision = rev
	return o, nil
}
