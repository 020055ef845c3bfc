package content

import "strings"

// The small part of Markdown that constraint parsing needs, read line by
// line: fenced code blocks, ATX headings at column 0, top-level list item
// markers and thematic breaks. Setext headings, block quotes and HTML are
// plain text here.

// line is one line of a content file without its line ending.
type line struct {
	text string
	// code is true for the lines of a fenced code block after its opening
	// fence, the closing fence included. The opening fence itself is an
	// ordinary line: it cannot look like a heading or a list item.
	code bool
}

// splitLines splits body into lines, taking CRLF and a lone CR as LF and
// dropping a leading byte order mark and the front matter
// (frontmatter.go), and marks fenced code.
//
// A fence opens with three or more backticks or tildes indented at most
// three spaces (a backtick fence's info string may not hold a backtick) and
// closes with a line of at least as many of the same character, indented at
// most three spaces and followed only by spaces or tabs. A fence that never
// closes runs to the end of the body. Fences are found before any other
// structure, so they hold in every context alike.
func splitLines(body string) []line {
	raw := strings.Split(normalizeNewlines(body), "\n")
	raw = raw[frontMatterLen(raw):]
	lines := make([]line, len(raw))
	var fence byte // the open fence's character, 0 outside fenced code
	var fenceLen int
	for i, text := range raw {
		lines[i].text = text
		if fence != 0 {
			lines[i].code = true
			if c, n, rest := fenceRun(text); c == fence && n >= fenceLen && isBlank(rest) {
				fence = 0
			}
			continue
		}
		if c, n, rest := fenceRun(text); c != 0 && !(c == '`' && strings.Contains(rest, "`")) {
			fence, fenceLen = c, n
		}
	}
	return lines
}

// fenceRun reports the fence character and run length at the start of s,
// after at most three spaces, and the rest of the line; c is 0 when s does
// not start with a run of three or more backticks or tildes.
func fenceRun(s string) (c byte, n int, rest string) {
	i := 0
	for i < 3 && i < len(s) && s[i] == ' ' {
		i++
	}
	if i == len(s) || s[i] != '`' && s[i] != '~' {
		return 0, 0, ""
	}
	j := i
	for j < len(s) && s[j] == s[i] {
		j++
	}
	if j-i < 3 {
		return 0, 0, ""
	}
	return s[i], j - i, s[j:]
}

// headingLevel returns the level, 1 to 6, of the ATX heading s (one to six
// '#' at column 0 followed by a space, a tab or the end of the line), or 0
// when s is not one.
func headingLevel(s string) int {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(s) && s[n] != ' ' && s[n] != '\t' {
		return 0
	}
	return n
}

// headingTitle returns the text of the ATX heading s of the given level
// without surrounding white space and without its closing run of '#'. As in
// CommonMark, that run must follow a space or tab ("## C#" is titled "C#")
// or be the whole text ("## ##" has an empty title).
func headingTitle(s string, level int) string {
	t := strings.Trim(s[level:], " \t")
	u := strings.TrimRight(t, "#")
	if u == "" {
		return ""
	}
	if u != t && (u[len(u)-1] == ' ' || u[len(u)-1] == '\t') {
		return strings.TrimRight(u, " \t")
	}
	return t
}

// listItem reports whether s opens a top-level list item ("- ", "* " or
// digits and ". " at column 0; a tab may stand for the space) and returns
// the text after the marker. A thematic break such as "* * *" is not an item.
func listItem(s string) (rest string, ok bool) {
	if isThematicBreak(s) {
		return "", false
	}
	i := 0
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "*") {
		i = 1
	} else {
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if i == 0 || i == len(s) || s[i] != '.' {
			return "", false
		}
		i++
	}
	if i == len(s) || s[i] != ' ' && s[i] != '\t' {
		return "", false
	}
	return s[i+1:], true
}

// isThematicBreak reports whether s is three or more of the same '-', '*' or
// '_', optionally separated by spaces or tabs.
func isThematicBreak(s string) bool {
	var mark byte
	n := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
		case (c == '-' || c == '*' || c == '_') && (mark == 0 || c == mark):
			mark = c
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// isIndented reports whether s starts with a space or a tab.
func isIndented(s string) bool {
	return s != "" && (s[0] == ' ' || s[0] == '\t')
}

// isBlank reports whether s holds only white space.
func isBlank(s string) bool {
	return strings.TrimSpace(s) == ""
}
