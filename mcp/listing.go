package mcp

import (
	"slices"
	"strconv"
	"strings"

	"github.com/clumsies/clumsies/catalog"
)

// memdisc's text block for clients that have structuredContent (see
// modelText): a first line that says how many items matched and how to
// get the rest, then one line per item:
//
//	ID KIND PATH — DESCRIPTION [draft STATUS: REASON] [team rN, shadows ID] [paths GLOBS] [matched PATHS]
//
// each bracket only when it says something. The hash, name and group are
// left to structuredContent: memload takes "" for a hash not known, and
// name and group are parts of the path.

// appendText implements modelText.
func (r discoverResult) appendText(dst []byte) []byte {
	dst = slices.Grow(dst, r.textSize())
	if n := len(r.Items); n == 0 && r.Total == 0 {
		dst = append(dst, "No item matched."...)
	} else {
		dst = append(dst, "Listed "...)
		dst = strconv.AppendInt(dst, int64(n), 10)
		dst = append(dst, " of "...)
		dst = strconv.AppendInt(dst, int64(r.Total), 10)
		dst = append(dst, " matching items, by path."...)
	}
	if r.InScope != nil {
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, int64(*r.InScope), 10)
		dst = append(dst, " in scope for your paths come first, with matched: load them before you edit those files."...)
	}
	if r.Truncated {
		dst = append(dst, " More: pass cursor "...)
		dst = strconv.AppendQuote(dst, r.NextCursor)
		dst = append(dst, " with the same filters for the next page, or narrow with kind, group or query words."...)
	}
	for i := range r.Items {
		dst = r.Items[i].appendLine(append(dst, '\n'))
	}
	return dst
}

// textSize is about how many bytes appendText writes: the first line and,
// per item, its strings and the words around them.
func (r *discoverResult) textSize() int {
	n := 320
	for i := range r.Items {
		it := &r.Items[i]
		n += len(it.ID) + len(it.Kind) + len(it.Path) + len(it.Description) + len(it.DraftReason) + len(it.Shadows) + 24
		for _, p := range it.Paths {
			n += len(p) + 2
		}
		for _, p := range it.Matched {
			n += len(p) + 2
		}
	}
	return n
}

// appendLine appends the item's line.
func (it *discoverItem) appendLine(dst []byte) []byte {
	dst = appendLine(dst, it.ID)
	dst = append(dst, ' ')
	dst = appendLine(dst, string(it.Kind))
	dst = append(dst, ' ')
	dst = appendLine(dst, it.Path)
	if it.Description != "" {
		dst = appendLine(append(dst, " — "...), strings.TrimSpace(it.Description))
	}
	if it.HasDraft || it.DraftStatus != "" {
		dst = append(dst, " [draft"...)
		if it.DraftStatus != "" && it.DraftStatus != string(catalog.StatusDraft) {
			dst = appendLine(append(dst, ' '), it.DraftStatus)
		}
		if it.DraftReason != "" {
			dst = appendLine(append(dst, ": "...), it.DraftReason)
		}
		dst = append(dst, ']')
	}
	if it.Source != "" {
		dst = appendLine(append(dst, " ["...), it.Source)
		if it.Revision != 0 {
			dst = strconv.AppendUint(append(dst, " r"...), it.Revision, 10)
		}
		if it.Shadows != "" {
			dst = appendLine(append(dst, ", shadows "...), it.Shadows)
		}
		dst = append(dst, ']')
	}
	dst = appendList(dst, " [paths ", it.Paths)
	return appendList(dst, " [matched ", it.Matched)
}

// appendList appends head, the values separated by ", " and "]", or
// nothing when there are none.
func appendList(dst []byte, head string, values []string) []byte {
	if len(values) == 0 {
		return dst
	}
	dst = append(dst, head...)
	for i, v := range values {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = appendLine(dst, v)
	}
	return append(dst, ']')
}
