package mcp

import (
	"context"
	"testing"
)

// BenchmarkCall measures whole tool calls through a real client over the
// in-memory transport, with a MemoryLog ledger: the cost of our handlers,
// the SDK and the JSON, without stdio or JetStream.
func BenchmarkCall(b *testing.B) {
	e := newEnv(b, envOptions{})
	id := e.publish("rules/workflow/CODING.md", "# Coding\n\n## Steps\n\n1. Read the request.\n2. Find similar code.\n3. Keep it small.\n4. Test it.\n5. Describe it.\n")
	c := e.connect()
	setup(b, c, "bench")
	hit := mustOK(b, c, "memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: ""}})
	hash := hit["items"].([]any)[0].(map[string]any)["hash"].(string)
	calls := []struct {
		name, tool string
		args       any
	}{
		{"memload/hit", "memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: hash}}},
		{"memload/miss", "memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: ""}}},
		{"memref", "memref", map[string]any{"refs": []any{map[string]any{"ruleId": id, "constraintId": "Steps/1"}}}},
		{"memdisc", "memdisc", map[string]any{"query": "coding"}},
	}
	for _, k := range calls {
		b.Run(k.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, isErr, err := c.Call(context.Background(), k.tool, k.args); err != nil || isErr {
					b.Fatalf("%s: %v", k.tool, err)
				}
			}
		})
	}
}
