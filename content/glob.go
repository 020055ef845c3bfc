package content

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A glob of a rule's "paths" names files by their workspace-relative,
// slash-separated paths:
//
//   - a glob is segments separated by "/", matched one for one against the
//     segments of a path, from the workspace root;
//   - a segment "**" matches zero or more whole segments (folders);
//   - in any other segment, "*" matches any run of characters and "?" one
//     character, never a "/": "*.go" is a Go file at the root only,
//     "**/*.go" is one anywhere;
//   - every other character matches itself, case-sensitively.
//
// CheckGlob refuses what would not mean what it seems to: character
// classes and braces, which this matcher does not support, a "**" inside
// a segment, and paths that are absolute, leave the workspace or are not
// clean.

// CheckGlob returns nil if g is a glob MatchGlob reads as documented, or
// an error naming g and why not.
func CheckGlob(g string) error {
	bad := func(why string) error { return fmt.Errorf("glob %q: %s", g, why) }
	switch {
	case g == "":
		return bad("it is empty")
	case !utf8.ValidString(g):
		return bad("it is not valid UTF-8")
	case strings.HasPrefix(g, "/"):
		return bad("it is absolute; write it relative to the workspace root, without a leading /")
	case strings.ContainsRune(g, '\\'):
		return bad(`it holds a backslash; separate folders with "/"`)
	case strings.ContainsAny(g, "[]{}"):
		return bad(`character classes [...] and braces {...} are not supported; write one glob per alternative`)
	case strings.IndexFunc(g, unicode.IsControl) >= 0:
		return bad("it holds a control character")
	}
	for seg := range strings.SplitSeq(g, "/") {
		switch {
		case seg == "":
			return bad(`it has an empty folder ("//" or a trailing "/")`)
		case seg == "." || seg == "..":
			return bad(`it has a "." or ".." segment; write the path from the workspace root`)
		case seg != "**" && strings.Contains(seg, "**"):
			return bad(`"**" must be a whole segment, as in "api/**/x.go"; use "*" within a name`)
		}
	}
	return nil
}

// MatchGlob reports whether the workspace-relative, slash-separated path
// p matches glob g (see CheckGlob for the syntax). A glob CheckGlob
// refuses may match nothing, or what its literal text suggests.
func MatchGlob(g, p string) bool {
	gs, ps := strings.Split(g, "/"), strings.Split(p, "/")
	// Each glob segment but "**" matches exactly one path segment, so the
	// matching of "*" over characters works over segments too: remember
	// the last "**" and, on a mismatch, let it take one more segment.
	gi, pi := 0, 0
	star, taken := -1, 0
	for pi < len(ps) {
		switch {
		case gi < len(gs) && gs[gi] == "**":
			star, taken = gi, pi
			gi++
		case gi < len(gs) && matchSegment(gs[gi], ps[pi]):
			gi++
			pi++
		case star >= 0:
			taken++
			gi, pi = star+1, taken
		default:
			return false
		}
	}
	for gi < len(gs) && gs[gi] == "**" {
		gi++
	}
	return gi == len(gs)
}

// matchSegment reports whether one path segment s matches one glob
// segment g, where "*" matches any run of characters and "?" one.
func matchSegment(g, s string) bool {
	gi, si := 0, 0
	star, taken := -1, 0
	for si < len(s) {
		switch {
		case gi < len(g) && g[gi] == '*':
			star, taken = gi, si
			gi++
		case gi < len(g) && g[gi] == '?':
			_, n := utf8.DecodeRuneInString(s[si:])
			gi++
			si += n
		case gi < len(g) && g[gi] == s[si]:
			gi++
			si++
		case star >= 0:
			_, n := utf8.DecodeRuneInString(s[taken:])
			taken += n
			gi, si = star+1, taken
		default:
			return false
		}
	}
	for gi < len(g) && g[gi] == '*' {
		gi++
	}
	return gi == len(g)
}
