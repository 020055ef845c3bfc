package content

import (
	"fmt"
	"testing"
)

// TestReader_ReadKeepsNothing checks that a Reader holds nothing of the
// files it read before: a publish reads every file of a large tree through
// one Reader.
func TestReader_ReadKeepsNothing(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 50 {
		files[fmt.Sprintf("rules/g/R%02d.md", i)] = fmt.Sprintf("# R%02d\n", i)
	}
	writeFiles(t, root, files)
	r, err := OpenReader(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for rel := range files {
		if _, err := r.Read(rel); err != nil {
			t.Fatal(err)
		}
		if n := len(r.s.names); n > 1 {
			t.Fatalf("after reading %s: the reader counts the names of %d files, want at most the one read", rel, n)
		}
		if len(r.s.files) != 1 || len(r.s.linked) != 0 {
			t.Fatalf("after reading %s: the reader holds %d files and %d linked, want 1 and 0", rel, len(r.s.files), len(r.s.linked))
		}
	}
}
