package textdiff

import (
	"fmt"
	"strings"
)

// context is how many unchanged lines a hunk shows around a change.
const context = 3

// Unified returns the unified diff that turns text a, named aName, into
// text b, named bName, with three lines of context, or "" when the texts
// are equal. An empty aName or bName is written /dev/null, as for a file
// that is created or removed. A last line without a line feed is followed
// by "\ No newline at end of file".
func Unified(aName, bName, a, b string) string {
	if a == b {
		return ""
	}
	la, lb := split(a), split(b)
	script := edits(la, lb)
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", nameOr(aName), nameOr(bName))
	for _, h := range hunks(script) {
		h.write(&sb, la, lb, script)
	}
	return sb.String()
}

func nameOr(name string) string {
	if name == "" {
		return "/dev/null"
	}
	return name
}

// hunk is a run of the script, from index from to index to (exclusive),
// that starts at line x of a and y of b (0-based).
type hunk struct {
	from, to int
	x, y     int
}

// hunks groups the changes of the script with their context: changes
// closer than twice the context share a hunk.
func hunks(script []op) []hunk {
	var out []hunk
	x, y := 0, 0
	// xs[i], ys[i]: the lines of a and b before step i.
	xs, ys := make([]int, len(script)+1), make([]int, len(script)+1)
	for i, o := range script {
		xs[i], ys[i] = x, y
		switch o {
		case keep:
			x, y = x+1, y+1
		case del:
			x++
		case ins:
			y++
		}
	}
	xs[len(script)], ys[len(script)] = x, y
	for i := 0; i < len(script); {
		if script[i] == keep {
			i++
			continue
		}
		start := max(0, i-context)
		end := i
		for end < len(script) {
			if script[end] != keep {
				end++
				continue
			}
			run := end
			for run < len(script) && script[run] == keep {
				run++
			}
			if run == len(script) || run-end > 2*context {
				end = min(end+context, len(script))
				break
			}
			end = run
		}
		out = append(out, hunk{from: start, to: end, x: xs[start], y: ys[start]})
		i = end
	}
	return out
}

func (h hunk) write(sb *strings.Builder, a, b []line, script []op) {
	na, nb := 0, 0
	for _, o := range script[h.from:h.to] {
		if o != ins {
			na++
		}
		if o != del {
			nb++
		}
	}
	fmt.Fprintf(sb, "@@ -%s +%s @@\n", span(h.x, na), span(h.y, nb))
	x, y := h.x, h.y
	for _, o := range script[h.from:h.to] {
		switch o {
		case keep:
			writeLine(sb, ' ', a[x])
			x, y = x+1, y+1
		case del:
			writeLine(sb, '-', a[x])
			x++
		case ins:
			writeLine(sb, '+', b[y])
			y++
		}
	}
}

// span renders a hunk's range of one side: start is 0-based; an empty
// range is written at the line before it, as diff -u does.
func span(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func writeLine(sb *strings.Builder, mark byte, l line) {
	sb.WriteByte(mark)
	sb.WriteString(l.text)
	sb.WriteByte('\n')
	if l.last {
		sb.WriteString("\\ No newline at end of file\n")
	}
}
