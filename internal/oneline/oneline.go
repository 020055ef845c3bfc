// Package oneline shortens text for one line of a terminal: the ledger's
// lines of `clumsies events` and the narration of `clumsies demo`.
package oneline

import "strings"

// Cut returns s on one line (newlines as spaces), cut to n runes with an
// ellipsis when longer.
func Cut(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Hash returns the first 12 hex digits of a "sha256:..." hash.
func Hash(h string) string {
	h = strings.TrimPrefix(h, "sha256:")
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
