package dash_test

import (
	"strings"
	"testing"

	"github.com/clumsies/clumsies/views/dash"
)

func TestDiff(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"", "", ""},
		{"a\nb\n", "a\nb\n", " a| b"},
		{"", "x\ny\n", "+x|+y"},
		{"x\ny\n", "", "-x|-y"},
		{"a\nb\nc\n", "a\nB\nc\n", " a|-b|+B| c"},
		{"a\nb\nc\nd\n", "a\nc\nd\ne\n", " a|-b| c| d|+e"},
		{"one\ntwo\nthree\n", "zero\none\nthree\n", "+zero| one|-two| three"},
	} {
		var got []string
		for _, l := range dash.Diff(c.a, c.b) {
			got = append(got, l.Op+l.Text)
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("Diff(%q, %q) = %q, want %q", c.a, c.b, g, c.want)
		}
	}
}
