package content

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// want builds the expected constraint with its text hash.
func want(id, name, text string) Constraint {
	return newConstraint(id, name, text)
}

func TestParseConstraints(t *testing.T) {
	tests := []struct {
		name string // subtest name
		file string // the file's name, passed to ParseConstraints
		body string
		want []Constraint
	}{
		// Rule 1: H1 lines are titles.
		{
			name: "Rule1_H1IsNotAConstraint",
			file: "F",
			body: "# Coding rules\n\n## Style\nUse gofmt.\n",
			want: []Constraint{want("Style", "Style", "Use gofmt.")},
		},
		{
			name: "Rule1_H1EndsSection",
			file: "F",
			body: "## A\nkept\n# Part two\nbelongs to nothing\n## B\n- b\n",
			want: []Constraint{want("A", "A", "kept"), want("B/1", "B", "b")},
		},
		{
			name: "Rule1_HashtagIsText",
			file: "F",
			body: "## A\n#hashtag stays\n",
			want: []Constraint{want("A", "A", "#hashtag stays")},
		},
		// Rule 2: sections.
		{
			name: "Rule2_Sections",
			file: "F",
			body: "## One\nfirst\n## Two ##  \nsecond\n### Detail\nmore\n",
			want: []Constraint{want("One", "One", "first"), want("Two", "Two", "second\n### Detail\nmore")},
		},
		{
			name: "Rule2_ExampleSectionsSkipped",
			file: "F",
			body: "## Example\n- not referable\n## EXAMPLES ##\ntext\n## examples\n## Examples of use\nreferable\n",
			want: []Constraint{want("Examples of use", "Examples of use", "referable")},
		},
		{
			name: "Rule2_TitleClosingSequence",
			file: "F",
			body: "##   C#   \nsharp\n## Go ###\ngo\n## \t##\nno title\n##\nno title either\n##NoSpace\n",
			want: []Constraint{want("C#", "C#", "sharp"), want("Go", "Go", "go")},
		},
		{
			name: "Rule2_IndentedHeadingIsText",
			file: "F",
			body: "## A\n  ## not a heading\n",
			want: []Constraint{want("A", "A", "## not a heading")},
		},
		// Rule 3: list items.
		{
			name: "Rule3_ListItems",
			file: "F",
			body: "## Steps\n- dash\n* star\n10. number\n-\ttab\n",
			want: []Constraint{
				want("Steps/1", "Steps", "dash"),
				want("Steps/2", "Steps", "star"),
				want("Steps/3", "Steps", "number"),
				want("Steps/4", "Steps", "tab"),
			},
		},
		{
			name: "Rule3_ContinuationLines",
			file: "F",
			body: "## S\n- first   line\n    second line\n\n  after a blank\nlazy line\n- next\n",
			want: []Constraint{want("S/1", "S", "first   line second line after a blank lazy line"), want("S/2", "S", "next")},
		},
		{
			name: "Rule3_StrayTextBelongsToNoItem",
			file: "F",
			body: "## S\nIntro text.\n- a\n\nA stray paragraph.\n  with an indented line\n- b\n### Heading\nafter heading\n- c\n---\nafter break\n",
			want: []Constraint{want("S/1", "S", "a"), want("S/2", "S", "b"), want("S/3", "S", "c")},
		},
		{
			name: "Rule3_NestedLists",
			file: "F",
			body: "## S\n- a\n  - a1\n  * a2\n    1. deep\n2. b\n\t- b1\n",
			want: []Constraint{want("S/1", "S", "a - a1 * a2 1. deep"), want("S/2", "S", "b - b1")},
		},
		{
			name: "Rule3_NotItems",
			file: "F",
			body: "## S\n**bold** text\n* * *\n- - -\n1.5 apples\n-dash\n",
			want: []Constraint{want("S", "S", "**bold** text\n* * *\n- - -\n1.5 apples\n-dash")},
		},
		{
			name: "Rule3_EmptyItem",
			file: "F",
			body: "## S\n- \n- b\n",
			want: []Constraint{want("S/1", "S", ""), want("S/2", "S", "b")},
		},
		// Rule 4: a section without list items.
		{
			name: "Rule4_WholeSection",
			file: "F",
			body: "## Style\n\n  Use gofmt.\n\n  - indented, so not top-level\n\n",
			want: []Constraint{want("Style", "Style", "Use gofmt.\n\n  - indented, so not top-level")},
		},
		{
			name: "Rule4_EmptySection",
			file: "F",
			body: "## Empty\n\n \t\n## Full\nx\n",
			want: []Constraint{want("Full", "Full", "x")},
		},
		// Rule 5: no "## " heading.
		{
			name: "Rule5_NoSections",
			file: "CODING",
			body: "# Coding\n\nAlways run the tests.\n- even lists\n# Second title\nend\n",
			want: []Constraint{want("CODING", "CODING", "Always run the tests.\n- even lists\nend")},
		},
		{
			name: "Rule5_EmptyBody",
			file: "CODING",
			body: "# Only a title\n\n",
			want: nil,
		},
		{
			name: "Rule5_NothingAtAll",
			file: "CODING",
			body: "",
			want: nil,
		},
		{
			name: "Rule5_HeadingOnlyInFence",
			file: "CODING",
			body: "Run:\n```\n## not a section\n# not a title\n```\n",
			want: []Constraint{want("CODING", "CODING", "Run:\n```\n## not a section\n# not a title\n```")},
		},
		{
			name: "Rule5_PreambleNotReferableWithSections",
			file: "CODING",
			body: "Preamble text.\n## A\na\n",
			want: []Constraint{want("A", "A", "a")},
		},
		// Rule 6: unique ids.
		{
			name: "Rule6_DuplicateTitles",
			file: "F",
			body: "## Steps\n- a\n## Steps\n- b\n- c\n## Steps\ntext\n",
			want: []Constraint{
				want("Steps/1", "Steps", "a"),
				want("Steps (2)/1", "Steps", "b"),
				want("Steps (2)/2", "Steps", "c"),
				want("Steps (3)", "Steps", "text"),
			},
		},
		{
			name: "Rule6_LiteralSuffixTaken",
			file: "F",
			body: "## A (2)\nx\n## A\ny\n## A\nz\n",
			want: []Constraint{want("A (2)", "A (2)", "x"), want("A", "A", "y"), want("A (3)", "A", "z")},
		},
		{
			name: "Rule6_EmptySectionKeepsItsTitle",
			file: "F",
			body: "## A\n\n## A\nx\n",
			want: []Constraint{want("A (2)", "A", "x")},
		},
		{
			name: "Rule6_SlashInTitle",
			file: "F",
			body: "## A/1\nx\n## A\n- y\n",
			want: []Constraint{want("A/1", "A/1", "x"), want("A (2)/1", "A", "y")},
		},
		{
			name: "Rule6_SuffixTakenByAnItemID",
			file: "F",
			body: "## A (2)/3\nx\n## A\n- a\n## A\n- b\n- c\n- d\n## A\n- e\n- f\n",
			want: []Constraint{
				want("A (2)/3", "A (2)/3", "x"),
				want("A/1", "A", "a"),
				want("A (3)/1", "A", "b"),
				want("A (3)/2", "A", "c"),
				want("A (3)/3", "A", "d"),
				want("A (4)/1", "A", "e"),
				want("A (4)/2", "A", "f"),
			},
		},
		{
			name: "Rule6_LeadingZeroIsNotAnItemNumber",
			file: "F",
			body: "## A/01\nx\n## A\n- a\n",
			want: []Constraint{want("A/01", "A/01", "x"), want("A/1", "A", "a")},
		},
		{
			name: "Rule6_ExamplesDoNotCount",
			file: "F",
			body: "## Example\nx\n## Example\ny\n## Steps\n- a\n",
			want: []Constraint{want("Steps/1", "Steps", "a")},
		},
		// Rule 7: name and hash (every case checks the hash through want).
		{
			name: "Rule7_NameIsTitle",
			file: "F",
			body: "## Rules\n- r\n## Rules\nt\n",
			want: []Constraint{want("Rules/1", "Rules", "r"), want("Rules (2)", "Rules", "t")},
		},
		// Rule 8: fenced code.
		{
			name: "Rule8_FenceInItem",
			file: "F",
			body: "## S\n- run:\n  ```sh\n## not a heading\n- not an item\n\nstill code\n  ```\n- b\n",
			want: []Constraint{
				want("S/1", "S", "run: ```sh ## not a heading - not an item still code ```"),
				want("S/2", "S", "b"),
			},
		},
		{
			name: "Rule8_LazyFenceInItem",
			file: "F",
			body: "## S\n- run:\n```\n- x\n```\n",
			want: []Constraint{want("S/1", "S", "run: ``` - x ```")},
		},
		{
			name: "Rule8_StrayFence",
			file: "F",
			body: "## S\n- a\n\n```\n- not an item\n```\n- b\n",
			want: []Constraint{want("S/1", "S", "a"), want("S/2", "S", "b")},
		},
		{
			name: "Rule8_TildeFenceClosedByLongerRun",
			file: "F",
			body: "## S\n~~~~\n## x\n~~~\n```\n- y\n~~~~~\ntail\n",
			want: []Constraint{want("S", "S", "~~~~\n## x\n~~~\n```\n- y\n~~~~~\ntail")},
		},
		{
			name: "Rule8_UnclosedFence",
			file: "F",
			body: "## S\ntext\n   ```go\n## T\n- z\n",
			want: []Constraint{want("S", "S", "text\n   ```go\n## T\n- z")},
		},
		{
			name: "Rule8_NotFences",
			file: "F",
			body: "## S\n```a`b\n    ```\n``\n## T\n- t\n",
			want: []Constraint{want("S", "S", "```a`b\n    ```\n``"), want("T/1", "T", "t")},
		},
		// Mixed files and line endings.
		{
			name: "Mixed",
			file: "CODING",
			body: "# Coding\n\nRead this first.\n\n## Style\nUse gofmt.\n\n## Steps\n1. Write a test.\n2. Make it pass.\n   Then refactor.\n\n## Examples\n- skipped\n\n## Steps\n- Commit.\n",
			want: []Constraint{
				want("Style", "Style", "Use gofmt."),
				want("Steps/1", "Steps", "Write a test."),
				want("Steps/2", "Steps", "Make it pass. Then refactor."),
				want("Steps (2)/1", "Steps", "Commit."),
			},
		},
		{
			name: "CRLF",
			file: "F",
			body: "# T\r\n## A\r\n- x\r\n  y\r\n## B\r\nline 1\r\nline 2\r\n",
			want: []Constraint{want("A/1", "A", "x y"), want("B", "B", "line 1\nline 2")},
		},
		{
			name: "LoneCR",
			file: "F",
			body: "## A\r- x\r",
			want: []Constraint{want("A/1", "A", "x")},
		},
		{
			name: "ByteOrderMark",
			file: "F",
			body: "\ufeff## A\nx\n",
			want: []Constraint{want("A", "A", "x")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseConstraints(tt.file, tt.body)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %s, want %s", formatConstraints(got), formatConstraints(tt.want))
			}
		})
	}
}

// formatConstraints prints constraints one per line for failure messages.
func formatConstraints(cs []Constraint) string {
	var b strings.Builder
	b.WriteString("[")
	for _, c := range cs {
		fmt.Fprintf(&b, "\n\t{id %q name %q text %q hash %s}", c.ID, c.Name, c.Text, c.TextHash)
	}
	b.WriteString("\n]")
	return b.String()
}

// checkConstraints fails tb when cs breaks an invariant that holds for
// every input.
func checkConstraints(tb testing.TB, name string, cs []Constraint) {
	tb.Helper()
	seen := map[string]bool{}
	for _, c := range cs {
		if seen[c.ID] {
			tb.Errorf("got duplicate id %q, want unique ids", c.ID)
		}
		seen[c.ID] = true
		if c.ID == "" && name != "" {
			tb.Errorf("got empty id for %q, want a non-empty id", c.Text)
		}
		if got, want := c.TextHash, Hash([]byte(c.Text)); got != want {
			tb.Errorf("id %q: got TextHash %s, want %s", c.ID, got, want)
		}
		if strings.Contains(c.Text, "\r") {
			tb.Errorf("id %q: got text %q, want no CR", c.ID, c.Text)
		}
	}
}

func FuzzParseConstraints(f *testing.F) {
	f.Add("CODING", "# Coding\n\n## Style\nUse gofmt.\n## Steps\n- a\n  b\n2. c\n## Example\n- x\n")
	f.Add("F", "## A/1\nx\n## A\n- y\n## A (2)\n- z\n## A\n\n## A\nq")
	f.Add("F", "## S\n- run:\n  ```sh\n## no\n- no\n  ```\n~~~\n## T\n")
	f.Add("F", "## A\r\n- x\r\n\r\nstray\r\n* * *\r\n- y\r")
	f.Add("F", "## A (2)/2\nx\n## A\n- a\n## A\n- b\n- c\n## A (3)\n\n## A\n- d\n")
	f.Add("", "")
	f.Add("F", "##\n## ##\n# \n##  #\n-\n1.\n")
	f.Fuzz(func(t *testing.T, name, body string) {
		got := ParseConstraints(name, body)
		checkConstraints(t, name, got)
		if again := ParseConstraints(name, body); !slices.Equal(got, again) {
			t.Errorf("got %s on the second call, want %s", formatConstraints(again), formatConstraints(got))
		}
		if !strings.Contains(body, "\r") {
			crlf := ParseConstraints(name, strings.ReplaceAll(body, "\n", "\r\n"))
			if !slices.Equal(got, crlf) {
				t.Errorf("got %s with CRLF line endings, want %s", formatConstraints(crlf), formatConstraints(got))
			}
		}
	})
}

func BenchmarkParseConstraints(b *testing.B) {
	// Many sections of one title: id assignment must stay linear.
	body := strings.Repeat("## Steps\n- a\n  b\n- c\n", 10000)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		ParseConstraints("F", body)
	}
}
