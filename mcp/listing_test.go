package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestListing_Lines checks memdisc's listing line by line: the first line's
// counts and cursor, and each item's id, kind, path, description, draft,
// team and scope, nothing else, each on one line whatever its strings hold.
func TestListing_Lines(t *testing.T) {
	inScope := 1
	r := discoverResult{
		Items: []discoverItem{
			{ID: "p-1", Kind: "rule", Path: "api/HANDLERS.md", Name: "HANDLERS", Group: "api", Hash: "sha256:aa", Description: "How handlers answer.",
				Paths: []string{"api/**/*.go", "cmd/*.go"}, Matched: []string{"api/v1/users.go"}},
			{ID: "tmp-rule-1", Kind: "rule", Path: "go/NEW.md", Hash: "sha256:bb", HasDraft: true, DraftStatus: "draft"},
			{ID: "p-2", Kind: "rule", Path: "go/ERRORS.md", Hash: "sha256:cc", HasDraft: true, DraftStatus: "in_review"},
			{ID: "p-3", Kind: "rule", Path: "go/NAMING.md", Hash: "sha256:dd", DraftStatus: "declined", DraftReason: "Say why.\nIn one line."},
			{ID: "p-4", Kind: "workflow", Path: "team/STYLE.md", Hash: "sha256:ee", Description: "  The team's\u2028style <b>&\t\"more\"  ", Source: "team", Revision: 3, Shadows: "p-5"},
			{ID: "c-1", Kind: "context", Path: "arch/\xffoverview.md", Hash: "sha256:ff"},
		},
		Total: 9, InScope: &inScope, Truncated: true, NextCursor: "eyJyIjox",
	}
	want := `Listed 6 of 9 matching items, by path. 1 in scope for your paths come first, with matched: load them before you edit those files. More: pass cursor "eyJyIjox" with the same filters for the next page, or narrow with kind, group or query words.
p-1 rule api/HANDLERS.md — How handlers answer. [paths api/**/*.go, cmd/*.go] [matched api/v1/users.go]
tmp-rule-1 rule go/NEW.md [draft]
p-2 rule go/ERRORS.md [draft in_review]
p-3 rule go/NAMING.md [draft declined: Say why. In one line.]
p-4 workflow team/STYLE.md — The team's style <b>& "more" [team r3, shadows p-5]
c-1 context arch/` + "\uFFFD" + `overview.md`
	if got := string(r.appendText(nil)); got != want {
		t.Fatalf("listing:\n%s\nwant:\n%s", got, want)
	}
	for _, c := range []struct {
		r    discoverResult
		want string
	}{
		{discoverResult{}, "No item matched."},
		{discoverResult{Items: []discoverItem{{ID: "p-1", Kind: "rule", Path: "a.md"}}, Total: 1}, "Listed 1 of 1 matching items, by path.\np-1 rule a.md"},
	} {
		if got := string(c.r.appendText(nil)); got != c.want {
			t.Errorf("listing of %+v: got %q, want %q", c.r, got, c.want)
		}
	}
}

// TestMemdisc_TextForModel calls memdisc through the SDK's client (protocol
// 2026-07-28, which has structuredContent) and checks that its text block
// is the listing of what structuredContent holds, without the hashes,
// and enough on its own: the next page comes from the cursor the text
// gives.
func TestMemdisc_TextForModel(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.publish("rules/api/HANDLERS.md", "---\npaths:\n  - \"api/**/*.go\"\n---\n# Handlers\n\nHow handlers answer.\n")
	e.append(events.TypeCatalogPublish, events.PublishData{ID: objectID("rule", "go/ERRORS.md"), Kind: "rule", Path: "go/ERRORS.md", Name: "ERRORS",
		Group: "go", Hash: "sha256:00", Body: "# Errors\n", Description: "Wrap \"errors\"\nwith <context> & care."})
	e.publish("context/arch/overview.md", "# Architecture\n\nThe importer.\n")
	c := e.connect()
	setup(t, c, "listing")
	mustOK(t, c, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"create": map[string]any{"path": "go/NEW", "body": "# New\n\nA new rule.\n"}}})

	call := func(args map[string]any) (string, map[string]any) {
		t.Helper()
		res, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "memdisc", Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("memdisc %v: %v %v", args, err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text, m
	}
	text, structured := call(map[string]any{"paths": []any{"api/v1/users.go"}, "limit": 3})
	if want := listingOf(t, structured); text != want {
		t.Fatalf("text:\n%s\nwant the listing of the structured answer:\n%s", text, want)
	}
	lines := strings.Split(text, "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "Listed 3 of 4 matching items, by path. 1 in scope for your paths") {
		t.Fatalf("listing:\n%s\nwant a first line of 3 of 4 items, 1 in scope, and three item lines", text)
	}
	items := structured["items"].([]any)
	for i, line := range lines[1:] {
		it := items[i].(map[string]any)
		if head := it["id"].(string) + " " + it["kind"].(string) + " " + it["path"].(string); !strings.HasPrefix(line, head) {
			t.Errorf("line %d %q does not begin with %q", i+1, line, head)
		}
		if strings.Contains(line, it["hash"].(string)) {
			t.Errorf("line %d %q holds the hash", i+1, line)
		}
	}
	for _, want := range []string{
		objectID("rule", "api/HANDLERS.md") + " rule api/HANDLERS.md [paths api/**/*.go] [matched api/v1/users.go]",
		objectID("rule", "go/ERRORS.md") + ` rule go/ERRORS.md — Wrap "errors" with <context> & care.`,
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("listing:\n%s\nwant the line %q", text, want)
		}
	}
	// The cursor as the text gives it brings the last item.
	_, after, ok := strings.Cut(lines[0], `pass cursor "`)
	cur, _, _ := strings.Cut(after, `"`)
	if !ok || cur != structured["nextCursor"] {
		t.Fatalf("first line %q: want the cursor %v", lines[0], structured["nextCursor"])
	}
	text, _ = call(map[string]any{"paths": []any{"api/v1/users.go"}, "limit": 3, "cursor": cur})
	if !strings.HasPrefix(text, "Listed 1 of 4 matching items") || !strings.Contains(text, "\n"+objectID("context", "arch/overview.md")+" context arch/overview.md") {
		t.Fatalf("next page:\n%s\nwant the context item", text)
	}
	if strings.Contains(text, "More:") {
		t.Fatalf("the last page:\n%s\nwant no cursor", text)
	}
}

// TestListing_OneAllocation checks that the listing is written into one
// buffer made large enough at once, not grown line by line.
func TestListing_OneAllocation(t *testing.T) {
	r := discoverResult{Total: 1000, Truncated: true, NextCursor: "eyJyIjoxLCJwIjoicnVsZXMvZzQ5L1JVTEUwOTgwLm1kIiwiaSI6InAtMDAifQ"}
	for i := range 50 {
		r.Items = append(r.Items, discoverItem{ID: "p-0123456789abcdef0123456789abcdef", Kind: "rule", Path: "g49/RULE0980.md", Name: "RULE0980", Group: "g49",
			Description: "How the team handles concern number 980 in group 80 (audited).", HasDraft: i%7 == 0, Paths: []string{"api/**/*.go"}})
	}
	var text []byte
	if allocs := testing.AllocsPerRun(20, func() { text = r.appendText(nil) }); allocs != 1 {
		t.Fatalf("the listing of 50 items took %.0f allocations, want 1", allocs)
	}
	if cap(text) > len(text)*5/4 {
		t.Fatalf("the listing of %d bytes was written into a buffer of %d: want at most a quarter more", len(text), cap(text))
	}
	if lines := strings.Count(string(text), "\n"); lines != 50 {
		t.Fatalf("the listing has %d item lines, want 50", lines)
	}
}
