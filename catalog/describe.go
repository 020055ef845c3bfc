package catalog

import (
	"strings"
	"unicode/utf8"
)

// maxDescription bounds a derived description, in bytes.
const maxDescription = 200

// Describe derives a one-line description from a markdown body: the first
// line of prose after any headings, cut to 200 bytes at a rune boundary.
// memdisc shows it and its query searches it, so an agent can choose
// without loading the body.
func Describe(body string) string {
	inFence := false
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "---") {
			continue
		}
		return cut(t)
	}
	return ""
}

func cut(s string) string {
	if len(s) <= maxDescription {
		return s
	}
	s = s[:maxDescription]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
