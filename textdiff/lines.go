package textdiff

import "strings"

// line is one line of a text, without its line feed; last marks a final
// line that had none.
type line struct {
	text string
	last bool // the text ends without a line feed after this line
}

// split cuts s into lines. An empty text has none.
func split(s string) []line {
	if s == "" {
		return nil
	}
	parts := strings.SplitAfter(s, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	out := make([]line, len(parts))
	for i, p := range parts {
		text, ok := strings.CutSuffix(p, "\n")
		out[i] = line{text: text, last: !ok}
	}
	return out
}
