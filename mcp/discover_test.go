package mcp

import (
	"context"
	"fmt"
	"testing"
)

// TestDiscover_Pages lists 450 rules: the first answer holds the default
// 200 with total 450 and truncated; following nextCursor gives every rule
// once, in order, and a rule published between two pages shows up in its
// place without shifting the others.
func TestDiscover_Pages(t *testing.T) {
	e := newEnv(t, envOptions{})
	for i := range 450 {
		e.publish(fmt.Sprintf("rules/big/R%03d.md", i), fmt.Sprintf("# R%03d\n\nRule %d.\n", i, i))
	}
	cl := e.connect()
	ctx := context.Background()
	if _, isErr, err := cl.Call(ctx, "memsetup", map[string]any{"session_id": "pages", "knownHashes": map[string]any{"META_PROMPT.md": ""}}); err != nil || isErr {
		t.Fatal(err)
	}
	seen := map[string]int{}
	var order []string
	args := map[string]any{"group": "big"}
	for page := 0; ; page++ {
		res, isErr, err := cl.Call(ctx, "memdisc", args)
		if err != nil || isErr {
			t.Fatalf("page %d: %v %v", page, err, res)
		}
		items := res["items"].([]any)
		if page == 0 && (len(items) != 200 || res["total"] != float64(450) || res["truncated"] != true || res["hint"] == nil) {
			t.Fatalf("first page: %d items, total %v, truncated %v, hint %v; want 200 of 450, truncated, a hint", len(items), res["total"], res["truncated"], res["hint"])
		}
		for _, it := range items {
			p := it.(map[string]any)["path"].(string)
			seen[p]++
			order = append(order, p)
		}
		if page == 0 {
			// Published between two pages: it sorts into the first page,
			// so the next pages neither repeat nor skip an item.
			e.publish("rules/big/R000a.md", "# R000a\n")
		}
		next, _ := res["nextCursor"].(string)
		if res["truncated"] != true {
			if next != "" {
				t.Fatalf("page %d: nextCursor %q on a complete answer", page, next)
			}
			break
		}
		args = map[string]any{"group": "big", "cursor": next}
	}
	if len(seen) != 450 {
		t.Fatalf("saw %d distinct rules, want 450", len(seen))
	}
	for p, n := range seen {
		if n != 1 {
			t.Errorf("%s listed %d times", p, n)
		}
	}
	for i := 1; i < len(order); i++ {
		if order[i-1] >= order[i] {
			t.Fatalf("out of order: %s before %s", order[i-1], order[i])
		}
	}
}
