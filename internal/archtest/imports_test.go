package archtest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that keeps the errors it is given.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestAllowImports_Exact: allowing a package does not allow the packages
// below it; "/..." does.
func TestAllowImports_Exact(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nimport (\n\t_ \"fmt\"\n\t_ \"" + Module + "/events/natsjs\"\n)\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		allowed []string
		fails   bool
	}{
		{[]string{Module + "/events"}, true},
		{[]string{Module + "/event"}, true},
		{[]string{Module + "/events/natsjs"}, false},
		{[]string{Module + "/events/..."}, false},
		{[]string{Module + "/events/natsjs/..."}, false},
		{nil, true},
	}
	for _, c := range cases {
		r := &recorder{TB: t}
		AllowImports(r, dir, c.allowed...)
		if got := len(r.errs) > 0; got != c.fails {
			t.Errorf("allowed %q: failed %v (%q), want %v", c.allowed, got, r.errs, c.fails)
		}
	}
}
