package rulecheck

import (
	"strings"

	"github.com/clumsies/clumsies/textdiff"
)

// Line is one line a change added to a file: its number in the file as it
// is after the change (from 1) and its text, without the line feed.
type Line struct {
	N    int
	Text string
}

// Added returns the lines of after that the change from before added, in
// their order: a line counts as added when before held fewer lines of
// that exact text than after has up to it. A line moved within the file
// is not added; a line whose text changed is. The cost is linear in the
// two texts. CRLF reads as LF.
func Added(before, after string) []Line {
	b, a := lines(before), lines(after)
	// The lines both texts start and end with are kept: only the middle
	// needs counting.
	pre, suf := textdiff.CommonEnds(b, a)
	had := make(map[string]int, len(b)-pre-suf)
	for _, l := range b[pre : len(b)-suf] {
		had[l]++
	}
	var out []Line
	for i := pre; i < len(a)-suf; i++ {
		l := a[i]
		if had[l] > 0 {
			had[l]--
			continue
		}
		out = append(out, Line{N: i + 1, Text: l})
	}
	return out
}

// lines splits s at LF, with a CR before it dropped; an empty text has
// none, and a final LF ends the last line rather than starting one.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	out := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range out {
		out[i] = strings.TrimSuffix(l, "\r")
	}
	return out
}
