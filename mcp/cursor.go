package mcp

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/clumsies/clumsies/projections"

	"github.com/clumsies/clumsies/content"
)

// cursor is where a memdisc page ended: the sort key of its last item
// (namespace rank, path, id), the order of memdisc's listing. The next page
// starts after it, so items published or removed between two pages neither
// repeat nor shift the pages. It travels as opaque base64url JSON.
type cursor struct {
	// Scope is 1 for an item after those in scope for memdisc's paths,
	// which come first; 0 for an item in scope, and without paths.
	Scope int    `json:"s,omitempty"`
	Rank  int    `json:"r"`
	Path  string `json:"p"`
	ID    string `json:"i"`
}

// cursorOf returns the sort key of an item.
func cursorOf(it projections.Item) cursor {
	return cursor{Rank: content.NamespaceOf(it.Kind).Rank(), Path: it.Path, ID: it.ID}
}

// before reports whether c sorts before k.
func (c *cursor) before(k cursor) bool {
	return cmp.Or(cmp.Compare(c.Scope, k.Scope), cmp.Compare(c.Rank, k.Rank), strings.Compare(c.Path, k.Path), strings.Compare(c.ID, k.ID)) < 0
}

func (c cursor) encode() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor argument; nil for none, invalid_params for
// one that no memdisc answer gave.
func decodeCursor(s string) (*cursor, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	var c cursor
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || c.Path == "" || c.ID == "" {
		return nil, invalidParams("cursor", "cursor must be the nextCursor of an earlier memdisc answer, passed as it was; omit it for the first page")
	}
	return &c, nil
}
