package textdiff_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/textdiff"
)

func TestUnified(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want string
	}{
		{"Equal", "a\nb\n", "a\nb\n", ""},
		{"Create", "", "one\ntwo\n", "--- /dev/null\n+++ b\n@@ -0,0 +1,2 @@\n+one\n+two\n"},
		{"Remove", "one\ntwo\n", "", "--- a\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-one\n-two\n"},
		{"ChangeInTheMiddle", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			"--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{"NoNewlineAtEnd", "a\nb", "a\nb\n", "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"TwoHunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "x\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ny\n",
			"--- a\n+++ b\n@@ -1,4 +1,4 @@\n-1\n+x\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+y\n"},
		{"CloseChangesShareAHunk", "1\n2\n3\n4\n5\n6\n7\n8\n", "x\n2\n3\n4\n5\n6\n7\ny\n",
			"--- a\n+++ b\n@@ -1,8 +1,8 @@\n-1\n+x\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+y\n"},
		{"InsertAtStart", "b\nc\n", "a\nb\nc\n", "--- a\n+++ b\n@@ -1,2 +1,3 @@\n+a\n b\n c\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			aName, bName := "a", "b"
			if tt.a == "" {
				aName = ""
			}
			if tt.b == "" {
				bName = ""
			}
			if got := textdiff.Unified(aName, bName, tt.a, tt.b); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestUnified_Patches checks on random texts that every diff, applied to
// the old text, gives the new one, and that its hunks are minimal where
// the texts share nothing but a middle line.
func TestUnified_Patches(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	text := func() string {
		var sb strings.Builder
		for range r.IntN(40) {
			sb.WriteString(strconv.Itoa(r.IntN(6)))
			sb.WriteByte('\n')
		}
		if r.IntN(5) == 0 {
			sb.WriteString("tail")
		}
		return sb.String()
	}
	for i := range 2000 {
		a, b := text(), text()
		d := textdiff.Unified("a", "b", a, b)
		got, err := patch(a, d)
		if err != nil || got != b {
			t.Fatalf("case %d: patch of %q with\n%s\ngave %q, %v; want %q", i, a, d, got, err, b)
		}
	}
}

// TestUnified_Large diffs two texts further apart than the search goes:
// still a correct diff.
func TestUnified_Large(t *testing.T) {
	var a, b strings.Builder
	for i := range 6000 {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	d := textdiff.Unified("a", "b", a.String(), b.String())
	if got, err := patch(a.String(), d); err != nil || got != b.String() {
		t.Fatalf("patch gave a wrong text: %v", err)
	}
}

// patch applies a unified diff to text: a reader of the format written
// independently of the writer, as a person's patch tool would read it.
func patch(text, diff string) (string, error) {
	if diff == "" {
		return text, nil
	}
	old := strings.SplitAfter(text, "\n")
	if old[len(old)-1] == "" {
		old = old[:len(old)-1]
	}
	lines := strings.SplitAfter(diff, "\n")
	var out []string
	pos := 0 // next line of old to copy
	for i := 2; i < len(lines) && lines[i] != ""; {
		var as, al, bs, bl int
		h := strings.TrimSuffix(lines[i], "\n")
		if _, err := fmt.Sscanf(normalize(h), "@@ -%d,%d +%d,%d @@", &as, &al, &bs, &bl); err != nil {
			return "", fmt.Errorf("hunk header %q: %v", h, err)
		}
		start := as - 1
		if al == 0 {
			start = as
		}
		if start < pos {
			return "", fmt.Errorf("hunk %q goes back", h)
		}
		out = append(out, old[pos:start]...)
		pos = start
		i++
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			body := l[1:]
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\\ No newline") {
				body = strings.TrimSuffix(body, "\n")
				i++
			}
			switch l[0] {
			case ' ':
				if pos >= len(old) || old[pos] != body {
					return "", fmt.Errorf("context %q does not match line %d", body, pos+1)
				}
				out, pos = append(out, body), pos+1
			case '-':
				if pos >= len(old) || old[pos] != body {
					return "", fmt.Errorf("removal %q does not match line %d", body, pos+1)
				}
				pos++
			case '+':
				out = append(out, body)
			default:
				return "", fmt.Errorf("bad line %q", l)
			}
			i++
		}
	}
	out = append(out, old[pos:]...)
	return strings.Join(out, ""), nil
}

// normalize writes a hunk header's one-line ranges with their count.
func normalize(h string) string {
	f := strings.Fields(h)
	for i := 1; i <= 2 && i < len(f); i++ {
		if !strings.Contains(f[i], ",") {
			f[i] += ",1"
		}
	}
	return strings.Join(f, " ")
}
