package mcp

import (
	"testing"
)

// TestTools_Annotations checks what tools/list tells a host about each
// tool, as the host reads it: a title, read-only for the tools a host may
// approve on its own (they change nothing the user owns), not destructive
// for the others, and a closed world for all.
func TestTools_Annotations(t *testing.T) {
	e := newEnv(t, envOptions{})
	tools := listTools(t, e.connect())
	readOnly := map[string]bool{"memsetup": true, "memdisc": true, "memload": true}
	if len(tools) != 7 {
		t.Fatalf("got %d tools, want 7", len(tools))
	}
	for name, tool := range tools {
		m := asMap(t, tool)
		if title, _ := m["title"].(string); title == "" {
			t.Errorf("%s has no title", name)
		}
		an, _ := m["annotations"].(map[string]any)
		if an == nil {
			t.Errorf("%s has no annotations", name)
			continue
		}
		if an["title"] != m["title"] {
			t.Errorf("%s: annotations title %v, want the tool's title %v", name, an["title"], m["title"])
		}
		if an["openWorldHint"] != false {
			t.Errorf("%s: openWorldHint %v, want false", name, an["openWorldHint"])
		}
		if an["readOnlyHint"] != readOnly[name] {
			t.Errorf("%s: readOnlyHint %v, want %v", name, an["readOnlyHint"], readOnly[name])
		}
		if readOnly[name] {
			if an["idempotentHint"] != true {
				t.Errorf("%s: idempotentHint %v, want true", name, an["idempotentHint"])
			}
			continue
		}
		// destructiveHint defaults to true: it must be there, and false.
		if an["destructiveHint"] != false {
			t.Errorf("%s: destructiveHint %v, want false", name, an["destructiveHint"])
		}
		if an["idempotentHint"] != false {
			t.Errorf("%s: idempotentHint %v, want false", name, an["idempotentHint"])
		}
	}
}
