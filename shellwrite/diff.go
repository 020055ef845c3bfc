package shellwrite

import (
	"path"
	"strconv"
	"strings"
)

// patchFile is one file a patch changes.
type patchFile struct {
	path string
	op   string
}

// diffSection is what the headers of one file's diff say.
type diffSection struct {
	git              bool   // it starts with "diff --git"
	gitA, gitB       string // the names on the "diff --git" line
	old, new         string // the names of the --- and +++ lines
	renameFrom       string // git's rename from, relative to the top
	renameTo, copyTo string
	created, deleted bool
	modeOnly         bool // old mode/new mode, and nothing else
}

// diffFiles returns the files a unified diff (git's, or diff -u's)
// changes: the names of its ---/+++ and "diff --git" lines with strip
// leading components removed, as patch -p and git apply -p do; strip -1
// is patch without -p, which keeps the base name (and, for a git diff,
// the name without its a/ or b/ too, as patch may take it). both reads a
// file's old and new names, as patch picks either; else the new one, as
// git apply does. It returns false when a name is not known (it has a
// hole) or cannot be read, or the text has no file header.
func diffFiles(text string, strip int, both bool) ([]patchFile, bool) {
	var out []patchFile
	ok := true
	var cur *diffSection
	flush := func() {
		if cur != nil {
			files, good := cur.files(strip, both)
			out = append(out, files...)
			ok = ok && good
		}
		cur = nil
	}
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSuffix(lines[i], "\r")
		switch {
		case strings.HasPrefix(l, "diff --git "):
			flush()
			cur = &diffSection{git: true}
			a, b, good := gitNames(l[len("diff --git "):])
			cur.gitA, cur.gitB, ok = a, b, ok && good
		case strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ "):
			if cur == nil || !cur.git || cur.old != "" {
				flush()
				cur = &diffSection{}
			}
			cur.old = headerName(l[len("--- "):])
			cur.new = headerName(strings.TrimSuffix(lines[i+1], "\r")[len("+++ "):])
			i = skipHunks(lines, i+2) - 1
		case cur == nil:
		case strings.HasPrefix(l, "rename from "):
			cur.renameFrom = unquoteName(l[len("rename from "):])
		case strings.HasPrefix(l, "rename to "):
			cur.renameTo = unquoteName(l[len("rename to "):])
		case strings.HasPrefix(l, "copy to "):
			cur.copyTo = unquoteName(l[len("copy to "):])
		case strings.HasPrefix(l, "new file mode "):
			cur.created = true
		case strings.HasPrefix(l, "deleted file mode "):
			cur.deleted = true
		case strings.HasPrefix(l, "new mode "):
			cur.modeOnly = true
		}
	}
	flush()
	return out, ok && len(out) > 0
}

// files returns the files of one section.
func (s *diffSection) files(strip int, both bool) ([]patchFile, bool) {
	var out []patchFile
	ok := true
	add := func(name, op string, stripped bool) {
		if name == "" || name == "/dev/null" {
			return
		}
		names := []string{name}
		if stripped {
			names = stripName(name, strip, s.git)
		}
		if len(names) == 0 || strings.Contains(name, hole) {
			ok = false
			return
		}
		for _, n := range names {
			out = append(out, patchFile{n, op})
		}
	}
	switch {
	case s.renameFrom != "" || s.renameTo != "":
		add(s.renameFrom, OpMove, false)
		add(s.renameTo, OpWrite, false)
	case s.copyTo != "":
		add(s.copyTo, OpWrite, false)
	case s.old == "" && s.new == "":
		// A git diff of a binary file or of a mode alone.
		op := OpWrite
		if s.modeOnly {
			op = OpMode
		}
		switch {
		case s.deleted:
			add(s.gitA, OpDelete, true)
		case s.created:
			add(s.gitB, OpCreate, true)
		default:
			add(s.gitB, op, true)
		}
	case s.deleted || s.new == "/dev/null":
		add(s.old, OpDelete, true)
	case s.created || s.old == "/dev/null":
		add(s.new, OpCreate, true)
	default:
		add(s.new, OpWrite, true)
		if both && s.old != s.new {
			add(s.old, OpWrite, true)
		}
	}
	return out, ok
}

// stripName returns the names a patch applies name as, strip leading
// components removed (see diffFiles); none when it has fewer.
func stripName(name string, strip int, git bool) []string {
	if strip < 0 {
		out := []string{path.Base(name)}
		if git {
			if n, ok := stripComponents(name, 1); ok && n != out[0] {
				out = append(out, n)
			}
		}
		return out
	}
	if n, ok := stripComponents(name, strip); ok {
		return []string{n}
	}
	return nil
}

// stripComponents removes n leading components of name; runs of slashes
// count as one.
func stripComponents(name string, n int) (string, bool) {
	for range n {
		i := strings.IndexByte(name, '/')
		if i < 0 {
			return "", false
		}
		name = strings.TrimLeft(name[i+1:], "/")
	}
	return name, name != ""
}

// headerName reads the name of a ---/+++ line: up to a tab (a date may
// follow it), unquoted if git quoted it.
func headerName(s string) string {
	if !strings.HasPrefix(s, `"`) {
		s, _, _ = strings.Cut(s, "\t")
		return strings.TrimRight(s, " ")
	}
	return unquoteName(s)
}

// unquoteName reads a name git may have quoted as a C string.
func unquoteName(s string) string {
	if name, _, ok := cQuoted(s); ok {
		return name
	}
	return s
}

// gitNames reads the two names of a "diff --git a/x b/x" line.
func gitNames(s string) (a, b string, ok bool) {
	if strings.HasPrefix(s, `"`) {
		a, rest, ok := cQuoted(s)
		if !ok || !strings.HasPrefix(rest, " ") {
			return "", "", false
		}
		return a, unquoteName(rest[1:]), true
	}
	if i := strings.Index(s, ` "`); i >= 0 {
		b, _, ok := cQuoted(s[i+1:])
		return s[:i], b, ok
	}
	// Both names unquoted: the same path after their first component.
	if len(s)%2 == 1 {
		half := len(s) / 2
		x, y := s[:half], s[half+1:]
		if s[half] == ' ' && afterSlash(x) == afterSlash(y) {
			return x, y, true
		}
	}
	if i := strings.Index(s, " b/"); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return "", "", false
}

func afterSlash(s string) string {
	_, rest, _ := strings.Cut(s, "/")
	return rest
}

// cQuoted reads the C-quoted string s starts with and returns it
// unquoted with the rest of s.
func cQuoted(s string) (string, string, bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", s, false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), s[i+1:], true
		case c != '\\' || i+1 >= len(s):
			b.WriteByte(c)
			continue
		}
		i++
		switch c := s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3':
			if i+2 < len(s) {
				if n, err := strconv.ParseUint(s[i:i+3], 8, 8); err == nil {
					b.WriteByte(byte(n))
					i += 2
					continue
				}
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return "", s, false
}

// skipHunks returns the index of the first line at or after i that is not
// part of a hunk (@@ -a,b +c,d @@ and the lines it counts).
func skipHunks(lines []string, i int) int {
	for i < len(lines) {
		oldN, newN, ok := hunkHeader(lines[i])
		if !ok {
			return i
		}
		i++
		for i < len(lines) && (oldN > 0 || newN > 0) {
			l := lines[i]
			switch {
			case l == "" || l == "\r" || l[0] == ' ':
				oldN--
				newN--
			case l[0] == '-':
				oldN--
			case l[0] == '+':
				newN--
			case l[0] == '\\':
			default:
				return i // a hunk shorter than it said
			}
			i++
		}
		for i < len(lines) && strings.HasPrefix(lines[i], `\`) {
			i++ // \ No newline at end of file
		}
	}
	return i
}

// hunkHeader reads the line counts of "@@ -a[,b] +c[,d] @@".
func hunkHeader(l string) (oldN, newN int, ok bool) {
	rest, found := strings.CutPrefix(l, "@@ -")
	if !found {
		return 0, 0, false
	}
	oldRange, rest, found := strings.Cut(rest, " +")
	if !found {
		return 0, 0, false
	}
	newRange, _, found := strings.Cut(rest, " @@")
	if !found {
		return 0, 0, false
	}
	oldN, ok1 := rangeCount(oldRange)
	newN, ok2 := rangeCount(newRange)
	return oldN, newN, ok1 && ok2
}

// rangeCount reads the count of a hunk's "start[,count]" (1 if absent).
func rangeCount(r string) (int, bool) {
	start, count, found := strings.Cut(r, ",")
	if _, err := strconv.Atoi(start); err != nil {
		return 0, false
	}
	if !found {
		return 1, true
	}
	n, err := strconv.Atoi(count)
	return n, err == nil && n >= 0
}
