package content

import (
	"testing"
	"unsafe"
)

// TestParseConstraints_IDsHoldNotTheBody checks that no constraint id
// points into the body it was parsed from: a read model that keeps only
// the ids of a file's constraints would keep the whole body alive.
func TestParseConstraints_IDsHoldNotTheBody(t *testing.T) {
	body := "# Rule\n\nIntro.\n\n## Notes\n\nA paragraph.\n\n## Steps\n\n- one\n- two\n\n## Notes\n\nAgain.\n"
	start := uintptr(unsafe.Pointer(unsafe.StringData(body)))
	end := start + uintptr(len(body))
	cs := ParseConstraints("RULE", body)
	if len(cs) != 4 {
		t.Fatalf("got %d constraints, want 4: %+v", len(cs), cs)
	}
	for _, c := range cs {
		if p := uintptr(unsafe.Pointer(unsafe.StringData(c.ID))); p >= start && p < end {
			t.Fatalf("constraint id %q points into the body", c.ID)
		}
	}
}
