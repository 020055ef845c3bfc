package attest_test

import (
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/proof/attest"
)

// TestAttribute_Bound: the predicate says how each of its sessions was
// bound to whoever set it up: by the host's hook (a secret at session
// start), by memsetup (its setup issued the secret), or not at all.
func TestAttribute_Bound(t *testing.T) {
	const b0, b1, b2, b3 = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222",
		"3333333333333333333333333333333333333333", "4444444444444444444444444444444444444444"
	e := ledger(t, "",
		ev(t, "hooked", events.TypeSessionStart, events.SessionStartData{Host: "claude-code", SecretHash: events.SecretHash("css-0123456789abcdef0123456789abcdef")}),
		ev(t, "setup", events.TypeSetup, events.SetupData{Hash: "h", Bound: events.BoundByMemsetup}),
		ev(t, "legacy", events.TypeSetup, events.SetupData{Hash: "h"}),
		write(t, "hooked", "a.go", b0, b1, nil, nil),
		write(t, "setup", "b.go", b0, b2, nil, nil),
		write(t, "legacy", "c.go", b0, b3, nil, nil),
	)
	p := attest.Attribute(e, attest.Target{Changes: []attest.Change{{Path: "a.go", Base: b0, Blob: b1}, {Path: "b.go", Base: b0, Blob: b2}, {Path: "c.go", Base: b0, Blob: b3}}})
	want := map[string]string{"hooked": events.BoundByHook, "setup": events.BoundByMemsetup, "legacy": ""}
	if len(p.Sessions) != len(want) {
		t.Fatalf("sessions %+v, want %d", p.Sessions, len(want))
	}
	for _, s := range p.Sessions {
		if s.Bound != want[s.ID] {
			t.Errorf("session %s: bound %q, want %q", s.ID, s.Bound, want[s.ID])
		}
	}
}
