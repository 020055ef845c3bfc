package treecheck

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkCheck is one check of an unchanged tree of 10,000 files in
// 100 folders: what a post-tool hook pays on a big repository.
func BenchmarkCheck(b *testing.B) {
	root, state := b.TempDir(), b.TempDir()
	for d := range 100 {
		for f := range 100 {
			p := filepath.Join(root, fmt.Sprintf("src/d%d/f%d.go", d, f))
			writeB(b, p, "package x\n")
		}
	}
	time.Sleep(racyWindow + 100*time.Millisecond) // past the racy window, as a tree edited a while ago
	s, _ := Open(state, time.Second)
	s.Check(root, nil)
	s.Close()
	b.ResetTimer()
	for b.Loop() {
		s, err := Open(state, time.Second)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Check(root, nil); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}
