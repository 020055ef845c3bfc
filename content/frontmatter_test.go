package content

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParsePaths(t *testing.T) {
	const rule = "# Title\n\nWhat it is for.\n\n## Do\n\n- x\n"
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"NoFrontMatter", rule, nil},
		{"NoPathsKey", "---\ndescription: api rules\nalwaysApply: false\n---\n" + rule, nil},
		{"BlockList", "---\npaths:\n  - \"api/**/*.go\"\n  - web/*.ts\n---\n" + rule, []string{"api/**/*.go", "web/*.ts"}},
		{"BlockListAtKeyIndent", "---\npaths:\n- api/**\n- 'it''s/*.md'\nother: 1\n---\n" + rule, []string{"api/**", "it's/*.md"}},
		{"FlowList", "---\npaths: [\"a/*.go\", 'b/**', c.md]\n---\n" + rule, []string{"a/*.go", "b/**", "c.md"}},
		{"SingleString", "---\npaths: \"api/**/*.go\" # the API\n---\n" + rule, []string{"api/**/*.go"}},
		{"BareString", "---\npaths: api/**/*.go\n---\n" + rule, []string{"api/**/*.go"}},
		{"OtherKeysAround", "---\ndescription: x\npaths:\n  # a comment\n  - a/*.go\n\nglobs: b\n---\n" + rule, []string{"a/*.go"}},
		{"CRLF", "---\r\npaths:\r\n  - a/*.go\r\n---\r\n" + rule, []string{"a/*.go"}},
		{"EmptyFlowList", "---\npaths: []\n---\n" + rule, nil},
		{"UnclosedBlockIsMarkdown", "---\npaths: [a]\n" + rule, nil},
		{"IndentedKeyIsNotTopLevel", "---\nmeta:\n  paths: [a]\n---\n" + rule, nil},
		{"EscapedQuote", "---\npaths: [\"a\\\"b/*\"]\n---\n" + rule, []string{"a\"b/*"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePaths(tt.body)
			if err != nil {
				t.Fatalf("ParsePaths: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParsePaths_Errors(t *testing.T) {
	tests := []struct {
		name string
		body string
		want string // a part of the message
	}{
		{"BadGlob", "---\npaths:\n  - \"api/[ab].go\"\n---\n", `"api/[ab].go"`},
		{"AbsoluteGlob", "---\npaths: /etc/*\n---\n", `"/etc/*"`},
		{"UnclosedList", "---\npaths: [a, b\n---\n", "closing ]"},
		{"UnclosedString", "---\npaths: [\"a]\n---\n", "no closing"},
		{"NoComma", "---\npaths: [\"a\" \"b\"]\n---\n", "comma"},
		{"EmptyItem", "---\npaths:\n  -\n---\n", "empty glob"},
		{"Mapping", "---\npaths: {a: b}\n---\n", "quote it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParsePaths(tt.body)
			if !errors.Is(err, ErrBadPaths) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want ErrBadPaths saying %q", err, tt.want)
			}
		})
	}
}

// A file that gains a front matter keeps its constraints, ids and texts
// alike, and stays a well-formed rule; a file without sections does not
// take the block into its one constraint.
func TestParseConstraints_FrontMatterIsNotContent(t *testing.T) {
	const block = "---\npaths:\n  - \"api/**/*.go\"\n## Not a section\n---\n"
	for _, body := range []string{
		"# Errors\n\nHow we handle errors.\n\n## Wrap\n\n- Wrap with context.\n- Name sentinels ErrX.\n\n## Log\n\nLog once.\n",
		"# Plain\n\nOne constraint, no sections.\n",
	} {
		want := ParseConstraints("ERRORS", body)
		if got := ParseConstraints("ERRORS", block+body); !reflect.DeepEqual(got, want) {
			t.Errorf("with front matter: got %+v, want %+v", got, want)
		}
		if got, want := CheckRule(block+body), CheckRule(body); (got == nil) != (want == nil) {
			t.Errorf("CheckRule with front matter: got %v, without %v", got, want)
		}
	}
	if err := CheckRule("---\npaths: [a]\n---\n## Only a section\n\n- x\n"); err == nil {
		t.Error("CheckRule took the front matter for a title and description")
	}
}

func FuzzParsePaths(f *testing.F) {
	f.Add("---\npaths:\n  - \"api/**/*.go\"\n---\n# T\n")
	f.Add("---\npaths: ['a''b', \"c\\\\d\", e]\n---\n")
	f.Add("---\npaths: x # y\n---\n")
	f.Fuzz(func(t *testing.T, body string) {
		globs, err := ParsePaths(body)
		if err != nil {
			if !errors.Is(err, ErrBadPaths) {
				t.Fatalf("error %v does not wrap ErrBadPaths", err)
			}
			return
		}
		for _, g := range globs {
			if err := CheckGlob(g); err != nil {
				t.Fatalf("ParsePaths returned %q, which CheckGlob refuses: %v", g, err)
			}
		}
	})
}

func TestWorkspacePathAndMatched(t *testing.T) {
	root := "/work/repo"
	var paths []string
	for _, p := range []string{"api/h.go", "/work/repo/api/v1/u.go", "./web/x.ts", "/elsewhere/api/h.go", "../repo2/api/h.go", ""} {
		if rel, ok := WorkspacePath(root, p); ok {
			paths = append(paths, rel)
		}
	}
	if want := []string{"api/h.go", "api/v1/u.go", "web/x.ts"}; !reflect.DeepEqual(paths, want) {
		t.Fatalf("WorkspacePath kept %q, want %q", paths, want)
	}
	if got, want := Matched([]string{"api/**/*.go"}, paths), []string{"api/h.go", "api/v1/u.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Matched = %q, want %q", got, want)
	}
	if got := Matched(nil, paths); got != nil {
		t.Errorf("a rule without globs matched %q", got)
	}
}

// FrontMatter and StripFrontMatter split a body in two that join back
// into it; KeepFrontMatter puts a block back on a body without one and
// leaves a body with its own block alone.
func TestFrontMatter_SplitAndKeep(t *testing.T) {
	const block = "---\r\npaths: [\"a/**\"]\r\n---\r\n"
	body := block + "# R\r\n\r\nText.\r\n"
	fm, rest := FrontMatter(body), StripFrontMatter(body)
	if fm != "---\npaths: [\"a/**\"]\n---\n" || rest != "# R\n\nText.\n" {
		t.Fatalf("split %q into %q and %q", body, fm, rest)
	}
	if got := KeepFrontMatter(fm, rest); got != fm+rest {
		t.Errorf("KeepFrontMatter on a bare body: %q", got)
	}
	own := "---\npaths: b/**\n---\n# R\n"
	if got := KeepFrontMatter(fm, own); got != own {
		t.Errorf("KeepFrontMatter on a body with its own block: %q, want it unchanged", got)
	}
	for _, b := range []string{"# R\n", "---\nno closing line\n", ""} {
		if FrontMatter(b) != "" || KeepFrontMatter("", b) != b {
			t.Errorf("%q: FrontMatter %q, want none", b, FrontMatter(b))
		}
	}
}
