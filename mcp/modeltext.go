package mcp

import "unicode/utf8"

// A successful answer's text block is, by default, its JSON again: the
// MCP specification says a tool that returns structured content SHOULD
// also return it serialized in a TextContent block, for backwards
// compatibility. For a client of a protocol version before 2025-06-18,
// which has no structuredContent, that text is the only structure it
// gets, and it keeps it. A client of 2025-06-18 or later reads the
// structure from structuredContent; many hosts still hand the model only
// the text. A result that implements modelText writes that text for the
// model instead (memdisc's listing, one line per item): the same facts in
// fewer tokens, without the copy the client decodes twice.

// modelText is a result whose text block, for clients that have
// structuredContent, is written for the model.
type modelText interface {
	// appendText appends the text to dst. It writes no control character
	// (newlines between lines aside), no invalid UTF-8 and no U+2028 or
	// U+2029 (appendLine leaves them out).
	appendText(dst []byte) []byte
}

// firstStructured is the first protocol version with structuredContent.
const firstStructured = "2025-06-18"

// hasStructured reports whether a client of protocol version v reads
// structuredContent. Versions are dates, so they compare as strings; ""
// (none known) counts as old.
func hasStructured(v string) bool { return v >= firstStructured }

// textFor appends the text block of result for a client of protocol
// version v to dst: nothing for the JSON copy.
func textFor(dst []byte, result any, v string) []byte {
	if m, ok := result.(modelText); ok && hasStructured(v) {
		return m.appendText(dst)
	}
	return dst
}

// appendLine appends s as part of one line of text: a control character,
// U+2028 or U+2029 becomes a space (none right after a space, so that a
// blank line between paragraphs is one space), invalid UTF-8 U+FFFD.
func appendLine(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < utf8.RuneSelf {
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = utf8.AppendRune(dst, utf8.RuneError)
		case r < 0x20 || r == '\u2028' || r == '\u2029':
			if len(dst) == 0 || dst[len(dst)-1] != ' ' {
				dst = append(dst, ' ')
			}
		default:
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return dst
}
