package hubwire

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
)

// The bounds of a page of a list the hub serves (nodes, team nodes,
// reviews, and the stats' rules, members, evidence per rule and
// sessions): a request without limit gets DefaultLimit items; a limit
// over MaxLimit is refused.
const (
	DefaultLimit = 100
	MaxLimit     = 1000
)

// SummaryItems bounds each list the stats summary (GET /api/stats)
// holds; the rest is in the list's pages, and the summary's More says how
// many items each list left off.
const SummaryItems = 20

// Page is one page of a list: at most the request's limit of items, in
// the list's order, after the item the request's cursor names.
type Page[T any] struct {
	Items []T `json:"items"`
	// Total is how many items the whole list holds now.
	Total int `json:"total"`
	// Next is the cursor of the next page (the request's cursor
	// parameter), "" on the last page.
	Next string `json:"next,omitempty"`
}

// ErrBadCursor means a cursor is not one the hub gave.
var ErrBadCursor = errors.New("the cursor is not one the hub gave (start again without cursor)")

// EncodeCursor returns the opaque cursor that names the item whose sort
// key is key: the next page starts after it.
func EncodeCursor(key []string) string {
	b, _ := json.Marshal(key)
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor returns the sort key of an opaque cursor; "" is the start
// (a nil key).
func DecodeCursor(c string) ([]string, error) {
	if c == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return nil, ErrBadCursor
	}
	var key []string
	if err := json.Unmarshal(b, &key); err != nil || len(key) == 0 {
		return nil, ErrBadCursor
	}
	return key, nil
}

// PageOf returns the page of items (sorted by key, each key unique) that
// starts after the item cursor names and holds at most limit items.
func PageOf[T any](items []T, key func(T) []string, cursor string, limit int) (Page[T], error) {
	after, err := DecodeCursor(cursor)
	if err != nil {
		return Page[T]{}, err
	}
	start := 0
	if after != nil {
		start, _ = slices.BinarySearchFunc(items, after, func(it T, k []string) int { return slices.Compare(key(it), k) })
		if start < len(items) && slices.Equal(key(items[start]), after) {
			start++
		}
	}
	end := min(start+limit, len(items))
	p := Page[T]{Items: slices.Clone(items[start:end]), Total: len(items)}
	if p.Items == nil {
		p.Items = []T{}
	}
	if end < len(items) && end > start {
		p.Next = EncodeCursor(key(items[end-1]))
	}
	return p, nil
}
