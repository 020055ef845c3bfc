package projections_test

import (
	"testing"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/projections"
)

// TestStore_ViewConstraintsHash checks the hash of a rule's constraints
// that View keeps with the rule's row: it is the hash of the constraints
// served, read again it is the same, and a publish that changes a
// constraint changes it (the kept one is not served past its version),
// while a publish that changes only the title keeps it.
func TestStore_ViewConstraintsHash(t *testing.T) {
	l, s := newLedger(t), openMem(t)
	apply(t, s, sampleCatalog(l)...)
	check := func(what string) projections.Item {
		t.Helper()
		it := mustView(t, s, ruleA)
		if want := projections.ConstraintsHash(it.Constraints); it.ConstraintsHash != want {
			t.Fatalf("%s: ConstraintsHash %s, want the hash of the constraints served, %s", what, it.ConstraintsHash, want)
		}
		if v := projections.VersionOf(it); v.Constraints != it.ConstraintsHash || v.Hash != it.Hash {
			t.Fatalf("%s: VersionOf %+v, want the item's hashes", what, v)
		}
		return it
	}
	first := check("published")
	if again := check("read again (from the row cache)"); again.ConstraintsHash != first.ConstraintsHash {
		t.Fatalf("read again: %s, want %s", again.ConstraintsHash, first.ConstraintsHash)
	}

	edited := "# A\n\n## Steps\n- one\n- three\n\n## Style\nUse gofmt.\n"
	apply(t, s, l.publish(ruleA, content.KindRule, "go/A.md", edited))
	changed := check("a constraint edited")
	if changed.ConstraintsHash == first.ConstraintsHash {
		t.Fatal("a constraint edited kept the hash of the constraints before")
	}

	retitled := "# A, renamed\n\n## Steps\n- one\n- three\n\n## Style\nUse gofmt.\n"
	apply(t, s, l.publish(ruleA, content.KindRule, "go/A.md", retitled))
	if it := check("the title edited"); it.ConstraintsHash != changed.ConstraintsHash || it.Hash == changed.Hash {
		t.Fatalf("the title edited: hash %s, constraints %s; want a new body hash and the constraints' hash %s", it.Hash, it.ConstraintsHash, changed.ConstraintsHash)
	}

	if ctx := mustView(t, s, ctxD); ctx.ConstraintsHash != "" || projections.VersionOf(ctx).Constraints != "" {
		t.Fatalf("a context item has a constraints hash: %s", jsonOf(ctx))
	}
}

// TestVersionOf_WithoutKeptHash checks that an item whose constraints
// hash was not set (a team object, an owner of an earlier version) gets
// it computed.
func TestVersionOf_WithoutKeptHash(t *testing.T) {
	cs := content.ParseConstraints("A", bodyA)
	it := projections.Item{Kind: content.KindRule, Hash: "h", Constraints: cs}
	if got, want := projections.VersionOf(it).Constraints, projections.ConstraintsHash(cs); got != want {
		t.Fatalf("VersionOf: %s, want %s", got, want)
	}
}
