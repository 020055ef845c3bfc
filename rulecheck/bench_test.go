package rulecheck

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/content"
)

// benchChange is a 2,000-line change of a file, as the hook bench makes
// it (internal/bench, checks).
func benchChange(n int) string {
	var b strings.Builder
	b.WriteString("package x\n\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "\tv%d := compute(%d, \"edit %d\") // keeps the handler small\n", i, i, n)
	}
	return b.String()
}

func benchSet(b *testing.B) *Set {
	var cs []content.Check
	for i := range 25 {
		cs = append(cs, content.Check{Constraint: "C", Forbid: fmt.Sprintf("StatusInternalServerError%d", i)},
			content.Check{Constraint: "C", Forbid: fmt.Sprintf(`(?i)fmt\.Print(ln|f)?\(.*secret%d\b`, i)})
	}
	s, err := Compile([]Rule{{ID: "p", Paths: []string{"**"}, Checks: cs}})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func BenchmarkAdded(b *testing.B) {
	before, after := benchChange(1), benchChange(2)
	for b.Loop() {
		Added(before, after)
	}
}

func BenchmarkFile(b *testing.B) {
	s := benchSet(b)
	added := Added(benchChange(1), benchChange(2))
	for b.Loop() {
		s.File("a.go", added)
	}
}

func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		benchSet(b)
	}
}
