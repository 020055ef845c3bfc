package content

import "testing"

// BenchmarkStampTree takes the stamp of a tree of 2,000 rules.
func BenchmarkStampTree(b *testing.B) {
	root := b.TempDir()
	writeRuleTree(b, root, 2000)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := StampTree(root); err != nil {
			b.Fatal(err)
		}
	}
}
