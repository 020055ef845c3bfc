package catalog

import (
	"strings"
	"unicode/utf8"

	"github.com/clumsies/clumsies/content"
)

// maxDescription bounds a derived description, in bytes.
const maxDescription = 200

// Describe derives a one-line description from a markdown body: the first
// line of prose after the front matter (content.StripFrontMatter) and any
// headings, without a list marker ("- ", "* ",
// "+ ", "1. ", "1) "), cut to 200 bytes at a rune boundary.
// memdisc shows it and its query searches it, so an agent can choose
// without loading the body.
func Describe(body string) string {
	inFence := false
	for _, l := range strings.Split(content.StripFrontMatter(body), "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "---") {
			continue
		}
		if t = trimListMarker(t); t == "" {
			continue
		}
		return cut(t)
	}
	return ""
}

// trimListMarker returns a line without its markdown list marker.
func trimListMarker(t string) string {
	if t == "-" || t == "*" || t == "+" {
		return "" // an empty item
	}
	for _, m := range []string{"- ", "* ", "+ "} {
		if strings.HasPrefix(t, m) {
			return strings.TrimSpace(t[len(m):])
		}
	}
	digits := len(t) - len(strings.TrimLeft(t, "0123456789"))
	if digits > 0 && digits <= 9 && len(t) > digits+1 && (t[digits] == '.' || t[digits] == ')') && t[digits+1] == ' ' {
		return strings.TrimSpace(t[digits+2:])
	}
	return t
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
