package oneline

import "testing"

func TestCut(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"two\nlines", 20, "two lines"},
		{"ééééé", 4, "ééé…"},
	} {
		if got := Cut(c.in, c.n); got != c.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
	if got := Hash("sha256:0123456789abcdef"); got != "0123456789ab" {
		t.Errorf("Hash: %q", got)
	}
}
