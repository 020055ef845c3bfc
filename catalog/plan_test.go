package catalog_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

const ws = "ws-0123456789abcdef0123456789abcdef"

func file(kind content.Kind, path, body string) content.File {
	return content.File{Kind: kind, Path: path, Name: content.NameOf(path), Group: content.GroupOf(path), Body: body, Hash: content.Hash([]byte(body))}
}

// apply folds planned events into a published list, as the manifest does.
func apply(tb testing.TB, pub []catalog.Published, evs []events.Event) []catalog.Published {
	tb.Helper()
	byID := map[string]catalog.Published{}
	var order []string
	for _, p := range pub {
		byID[p.ID] = p
		order = append(order, p.ID)
	}
	for _, ev := range evs {
		p, err := ev.Payload()
		if err != nil {
			tb.Fatal(err)
		}
		switch d := p.(type) {
		case *events.PublishData:
			if _, ok := byID[d.ID]; !ok {
				order = append(order, d.ID)
			}
			byID[d.ID] = catalog.Published{ID: d.ID, Kind: content.Kind(d.Kind), Path: d.Path, Hash: d.Hash}
		case *events.RemoveData:
			delete(byID, d.ID)
		}
	}
	var out []catalog.Published
	for _, id := range order {
		if p, ok := byID[id]; ok {
			out = append(out, p)
		}
	}
	return out
}

func plan(tb testing.TB, files []content.File, pub []catalog.Published) []events.Event {
	tb.Helper()
	evs, err := catalog.Plan(ws, files, pub, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return evs
}

func TestPlan(t *testing.T) {
	files := []content.File{
		file(content.KindMPF, content.MetaPromptPath, "# meta\n"),
		file(content.KindWorkflow, "workflow/CODING.md", "# Coding\n\n## Steps\n\n- a\n"),
		file(content.KindRule, "style/ERRORS.md", "# Errors\n"),
		file(content.KindContext, "arch/OVERVIEW.md", "# Overview\n\nThe system.\n"),
	}
	first := plan(t, files, nil)
	if len(first) != 4 {
		t.Fatalf("got %d events for a fresh tree, want 4", len(first))
	}
	idPattern := map[string]*regexp.Regexp{
		"workflow/CODING.md": regexp.MustCompile(`^p-[0-9a-f]{32}$`),
		"style/ERRORS.md":    regexp.MustCompile(`^p-[0-9a-f]{32}$`),
		"arch/OVERVIEW.md":   regexp.MustCompile(`^c-[0-9a-f]{32}$`),
		"META_PROMPT.md":     regexp.MustCompile(`^META_PROMPT\.md$`),
	}
	pub := apply(t, nil, first)
	ids := map[string]string{}
	for _, p := range pub {
		if !idPattern[p.Path].MatchString(p.ID) {
			t.Fatalf("got id %s for %s", p.ID, p.Path)
		}
		ids[p.Path] = p.ID
	}

	t.Run("UnchangedTreeAppendsNothing", func(t *testing.T) {
		if evs := plan(t, files, pub); len(evs) != 0 {
			t.Fatalf("got %d events, want 0", len(evs))
		}
	})
	t.Run("EditKeepsID", func(t *testing.T) {
		edited := append([]content.File(nil), files...)
		edited[2] = file(content.KindRule, "style/ERRORS.md", "# Errors\n\nchanged\n")
		evs := plan(t, edited, pub)
		if len(evs) != 1 || evs[0].Type != events.TypeCatalogPublish {
			t.Fatalf("got %d events, want one publish", len(evs))
		}
		p, _ := evs[0].Payload()
		if d := p.(*events.PublishData); d.ID != ids["style/ERRORS.md"] || d.Description != "changed" {
			t.Fatalf("got id %s description %q, want %s and \"changed\"", d.ID, d.Description, ids["style/ERRORS.md"])
		}
	})
	t.Run("RenameKeepsID", func(t *testing.T) {
		moved := append([]content.File(nil), files...)
		moved[2] = file(content.KindRule, "style/ERRS.md", "# Errors\n")
		evs := plan(t, moved, pub)
		if len(evs) != 1 {
			t.Fatalf("got %d events, want one publish and no remove", len(evs))
		}
		p, _ := evs[0].Payload()
		if d := p.(*events.PublishData); d.ID != ids["style/ERRORS.md"] || d.Path != "style/ERRS.md" {
			t.Fatalf("got %s at %s, want the old id at the new path", d.ID, d.Path)
		}
	})
	t.Run("RemovedFile", func(t *testing.T) {
		evs := plan(t, files[:3], pub)
		if len(evs) != 1 || evs[0].Type != events.TypeCatalogRemove {
			t.Fatalf("got %v, want one remove", evs)
		}
		if !strings.Contains(string(evs[0].Data), ids["arch/OVERVIEW.md"]) {
			t.Fatalf("remove names the wrong object: %s", evs[0].Data)
		}
	})
}

func TestDescribe(t *testing.T) {
	cases := map[string]string{
		"# Title\n\nFirst line.\nSecond.\n":                     "First line.",
		"# T\n```\ncode\n```\nafter\n":                          "after",
		"## only headings\n":                                    "",
		"# Secrets\n\n- Keep API keys out of the repository.\n": "Keep API keys out of the repository.",
		"* starred\n":                  "starred",
		"+ plus\n":                     "plus",
		"12. numbered\n":               "numbered",
		"3) parenthesised\n":           "parenthesised",
		"-\n- \n1.5 is a version\n":    "1.5 is a version",
		"-dash without a space\n":      "-dash without a space",
		"x" + strings.Repeat("é", 200): "x" + strings.Repeat("é", 99) + "…",
		"---\npaths:\n  - \"api/**\"\n---\n# API\n\nHow handlers answer.\n": "How handlers answer.",
	}
	for in, want := range cases {
		if got := catalog.Describe(in); got != want {
			t.Fatalf("Describe(%q): got %q, want %q", in, got, want)
		}
	}
}
