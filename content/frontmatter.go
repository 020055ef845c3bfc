package content

import (
	"errors"
	"fmt"
	"strings"
)

// A rule or workflow may start with a metadata block, the YAML-style front
// matter that Cursor rules and Claude Code's rules folder use:
//
//	---
//	paths:
//	  - "api/**/*.go"
//	---
//
// The block is the file's first line "---" up to the next line "---" (or
// "..."), both alone on their line (trailing spaces allowed). A file whose
// first line is "---" with no closing line has no block: all of it is
// markdown, as before. Constraint parsing, CheckRule and the derived
// description skip the block; a file that gains or loses one keeps its
// constraint ids.
//
// Of the block, clumsies reads the keys "paths" (see ParsePaths) and
// "checks" (see ParseChecks) and ignores every other key, comment and
// value.

// ErrBadPaths means a rule's front matter has a "paths" value that is not
// a string or a list of strings, or a glob that CheckGlob refuses. The
// error Scan returns names the file; its message names the glob.
var ErrBadPaths = errors.New("content: bad paths in the front matter")

// frontMatterLen returns how many of lines (split at LF, CR already taken
// as LF) the front matter takes, closing line included; 0 when there is
// none.
func frontMatterLen(lines []string) int {
	if len(lines) == 0 || !fenceLine(lines[0], "---") {
		return 0
	}
	for i := 1; i < len(lines); i++ {
		if fenceLine(lines[i], "---") || fenceLine(lines[i], "...") {
			return i + 1
		}
	}
	return 0
}

// fenceLine reports whether l is mark alone at column 0, with trailing
// spaces or tabs at most.
func fenceLine(l, mark string) bool {
	rest, ok := strings.CutPrefix(l, mark)
	return ok && isBlank(rest)
}

// frontMatter returns the lines inside body's front matter (without the
// two "---" lines) and body without it; block is nil when body has none.
func frontMatter(body string) (block []string, rest string) {
	if !strings.HasPrefix(strings.TrimPrefix(body, "\ufeff"), "---") {
		return nil, body // the common case, without splitting the body
	}
	raw := strings.Split(normalizeNewlines(body), "\n")
	n := frontMatterLen(raw)
	if n == 0 {
		return nil, body
	}
	return raw[1 : n-1], strings.Join(raw[n:], "\n")
}

// normalizeNewlines drops a leading byte order mark and reads CRLF and a
// lone CR as LF.
func normalizeNewlines(body string) string {
	body = strings.TrimPrefix(body, "\ufeff")
	body = strings.ReplaceAll(body, "\r\n", "\n")
	return strings.ReplaceAll(body, "\r", "\n")
}

// StripFrontMatter returns body without its front matter, line endings
// read as LF; body itself when it has none.
func StripFrontMatter(body string) string {
	_, rest := frontMatter(body)
	return rest
}

// FrontMatter returns body's front matter block as it opens the body, its
// "---" lines included and ending in a newline, line endings read as LF;
// "" when body has none. FrontMatter(b) + StripFrontMatter(b) is b with
// its line endings read as LF.
func FrontMatter(body string) string {
	if !strings.HasPrefix(strings.TrimPrefix(body, "\ufeff"), "---") {
		return ""
	}
	raw := strings.Split(normalizeNewlines(body), "\n")
	n := frontMatterLen(raw)
	if n == 0 {
		return ""
	}
	return strings.Join(raw[:n], "\n") + "\n"
}

// KeepFrontMatter returns body under block (a FrontMatter) when body has
// no front matter of its own, and body itself when it has one (its block
// replaces the other) or block is "".
func KeepFrontMatter(block, body string) string {
	if block == "" || FrontMatter(body) != "" {
		return body
	}
	return block + body
}

// ParsePaths returns the globs of the "paths" key of body's front matter,
// in their order, each checked by CheckGlob; nil when the body has no
// front matter or no "paths" key (the rule applies to no path in
// particular). The value may be one string (`paths: "api/**"`), a flow
// list (`paths: ["a/*.go", "b/**"]`) or a block list (`paths:` followed by
// lines "- glob"). Strings may be bare, or quoted with "..." (backslash
// escapes \" and \\) or '...' (” for a quote). A value of another shape,
// or a glob CheckGlob refuses, is an error wrapping ErrBadPaths that names
// it.
func ParsePaths(body string) ([]string, error) {
	block, _ := frontMatter(body)
	for i := 0; i < len(block); i++ {
		key, value, ok := strings.Cut(block[i], ":")
		if !ok || strings.TrimSpace(key) != "paths" || key != strings.TrimLeft(key, " \t") {
			continue
		}
		value = stripComment(strings.TrimSpace(value))
		var globs []string
		var err error
		switch {
		case value == "":
			globs, err = blockList(block[i+1:])
		case strings.HasPrefix(value, "["):
			globs, err = flowList(value)
		default:
			var g string
			g, err = scalar(value)
			globs = []string{g}
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadPaths, err)
		}
		for _, g := range globs {
			if err := CheckGlob(g); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrBadPaths, err)
			}
		}
		return globs, nil
	}
	return nil, nil
}

// blockList reads the "- item" lines that follow a key without a value,
// up to the first line that is neither an item, blank nor a comment.
func blockList(lines []string) ([]string, error) {
	var out []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		item, ok := strings.CutPrefix(t, "-")
		if !ok || (item != "" && item[0] != ' ' && item[0] != '\t') {
			break
		}
		g, err := scalar(stripComment(strings.TrimSpace(item)))
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// flowList reads `[a, "b", 'c']`.
func flowList(v string) ([]string, error) {
	if !strings.HasSuffix(v, "]") {
		return nil, fmt.Errorf("the list %s has no closing ]", v)
	}
	inner := strings.TrimSpace(v[1 : len(v)-1])
	var out []string
	for inner != "" {
		item, rest, err := nextItem(inner)
		if err != nil {
			return nil, err
		}
		g, err := scalar(item)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
		inner = rest
	}
	return out, nil
}

// nextItem splits the first item of a flow list's inside from the rest,
// after its comma.
func nextItem(s string) (item, rest string, err error) {
	end := -1
	switch s[0] {
	case '"', '\'':
		end = quoteEnd(s)
		if end < 0 {
			return "", "", fmt.Errorf("the string %s has no closing %c", s, s[0])
		}
		end++
	default:
		end = strings.IndexByte(s, ',')
		if end < 0 {
			end = len(s)
		}
	}
	item, rest = strings.TrimSpace(s[:end]), strings.TrimSpace(s[end:])
	if rest != "" {
		r, ok := strings.CutPrefix(rest, ",")
		if !ok {
			return "", "", fmt.Errorf("expected a comma after %s", item)
		}
		rest = strings.TrimSpace(r)
	}
	return item, rest, nil
}

// quoteEnd returns the index of the quote that closes the string s starts
// with, or -1.
func quoteEnd(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

// scalar reads one string: bare, "double-quoted" or 'single-quoted'.
func scalar(v string) (string, error) {
	if v == "" {
		return "", errors.New("an empty glob")
	}
	if v[0] != '"' && v[0] != '\'' {
		// YAML reads these as flow collections, anchors, tags, block
		// scalars or reserved: a glob starting so must be quoted. ("*",
		// an alias in YAML, is taken as the glob it obviously is.)
		if strings.IndexByte("[]{}&!|>%@`,", v[0]) >= 0 {
			return "", fmt.Errorf("the value %s starts with %q: quote it", v, v[0])
		}
		return v, nil
	}
	end := quoteEnd(v)
	if end != len(v)-1 {
		return "", fmt.Errorf("the string %s is not one quoted string", v)
	}
	inner := v[1:end]
	if v[0] == '\'' {
		return strings.ReplaceAll(inner, "''", "'"), nil
	}
	var b strings.Builder
	for i := 0; i < len(inner); i++ {
		if inner[i] == '\\' && i+1 < len(inner) {
			i++
			if inner[i] != '"' && inner[i] != '\\' && inner[i] != '/' {
				return "", fmt.Errorf("the string %s has an escape other than \\\" or \\\\", v)
			}
		}
		b.WriteByte(inner[i])
	}
	return b.String(), nil
}

// stripComment drops a " #..." comment after a value outside quotes.
func stripComment(v string) string {
	var q byte
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case q != 0:
			if c == '\\' && q == '"' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '#' && (i == 0 || v[i-1] == ' ' || v[i-1] == '\t'):
			return strings.TrimSpace(v[:i])
		}
	}
	return v
}
