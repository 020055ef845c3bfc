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
	return wildcard(len(gs), len(ps),
		func(i int) bool { return gs[i] == "**" },
		func(i, j int) bool { return matchSegment(gs[i], ps[j]) })
}

// matchSegment reports whether one path segment s matches one glob
// segment g, where "*" matches any run of characters and "?" one.
func matchSegment(g, s string) bool {
	if !strings.ContainsAny(g, "*?") {
		return g == s
	}
	gr, sr := []rune(g), []rune(s)
	return wildcard(len(gr), len(sr),
		func(i int) bool { return gr[i] == '*' },
		func(i, j int) bool { return gr[i] == '?' || gr[i] == sr[j] })
}

// wildcard matches a pattern of np elements against a subject of ns
// elements, where star(i) says that pattern element i matches any run of
// subject elements (none included) and one(i, j) whether pattern element
// i matches subject element j alone. It remembers the last star and, on a
// mismatch, lets it take one more element: every other pattern element
// matches exactly one subject element, so that choice is the only one to
// revisit, and the match costs at most np*ns steps.
func wildcard(np, ns int, star func(i int) bool, one func(i, j int) bool) bool {
	pi, si := 0, 0
	last, taken := -1, 0
	for si < ns {
		switch {
		case pi < np && star(pi):
			last, taken = pi, si
			pi++
		case pi < np && one(pi, si):
			pi++
			si++
		case last >= 0:
			taken++
			pi, si = last+1, taken
		default:
			return false
		}
	}
	for pi < np && star(pi) {
		pi++
	}
	return pi == np
}
