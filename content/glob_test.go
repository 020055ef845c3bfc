package content

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The table follows the rules of glob.go, one group per rule.
func TestMatchGlob(t *testing.T) {
	tests := []struct {
		rule  string
		glob  string
		path  string
		match bool
	}{
		{"SegmentsFromTheRoot", "api/handler.go", "api/handler.go", true},
		{"SegmentsFromTheRoot", "api/handler.go", "x/api/handler.go", false},
		{"SegmentsFromTheRoot", "api", "api/handler.go", false},
		{"SegmentsFromTheRoot", "handler.go", "api/handler.go", false},

		{"DoubleStarSpansFolders", "api/**/*.go", "api/v1/users/handler.go", true},
		{"DoubleStarSpansFolders", "api/**/*.go", "api/handler.go", true}, // zero folders
		{"DoubleStarSpansFolders", "api/**/*.go", "web/handler.go", false},
		{"DoubleStarSpansFolders", "**/*.go", "main.go", true},
		{"DoubleStarSpansFolders", "**/*.go", "a/b/c/main.go", true},
		{"DoubleStarSpansFolders", "**", "any/thing/at/all.md", true},
		{"DoubleStarSpansFolders", "docs/**", "docs/a/b.md", true},
		{"DoubleStarSpansFolders", "docs/**", "doc/a.md", false},
		{"DoubleStarSpansFolders", "**/testdata/**", "a/testdata/b/c.txt", true},
		{"DoubleStarSpansFolders", "**/testdata/**", "a/testdat/b.txt", false},
		{"DoubleStarSpansFolders", "a/**/b/**/c", "a/x/b/y/b/z/c", true},
		{"DoubleStarSpansFolders", "a/**/b/c", "a/b/x/b/c", true},
		{"DoubleStarSpansFolders", "a/**/b/c", "a/b/x/c", false},

		{"StarStaysInOneSegment", "*.go", "main.go", true},
		{"StarStaysInOneSegment", "*.go", "cmd/main.go", false},
		{"StarStaysInOneSegment", "cmd/*", "cmd/main.go", true},
		{"StarStaysInOneSegment", "cmd/*", "cmd/x/main.go", false},
		{"StarStaysInOneSegment", "*_test.go", "x_test.go", true},
		{"StarStaysInOneSegment", "*_test.go", "_test.go", true}, // zero characters
		{"StarStaysInOneSegment", "a*b*c", "aXbYbZc", true},
		{"StarStaysInOneSegment", "a*b*c", "aXbYbZ", false},
		{"StarStaysInOneSegment", "*", ".env", true},

		{"QuestionMarkIsOneCharacter", "v?/x", "v1/x", true},
		{"QuestionMarkIsOneCharacter", "v?/x", "v10/x", false},
		{"QuestionMarkIsOneCharacter", "v?/x", "v/x", false},
		{"QuestionMarkIsOneCharacter", "?.md", "é.md", true}, // a character, not a byte
		{"QuestionMarkIsOneCharacter", "a?b", "a/b", false},

		{"OtherCharactersMatchThemselves", "API/*.go", "api/x.go", false},
		{"OtherCharactersMatchThemselves", "docs/ré*.md", "docs/résumé.md", true},
		{"OtherCharactersMatchThemselves", "a+b/(x).go", "a+b/(x).go", true},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			if err := CheckGlob(tt.glob); err != nil {
				t.Fatalf("CheckGlob(%q) = %v, want nil", tt.glob, err)
			}
			if got := MatchGlob(tt.glob, tt.path); got != tt.match {
				t.Errorf("MatchGlob(%q, %q) = %v, want %v", tt.glob, tt.path, got, tt.match)
			}
		})
	}
}

func TestCheckGlob(t *testing.T) {
	tests := []struct {
		rule string
		glob string
		want string // a part of the error, "" for none
	}{
		{"Good", "api/**/*.go", ""},
		{"Good", "**", ""},
		{"Good", "README.md", ""},
		{"NotEmpty", "", "empty"},
		{"RelativeToTheRoot", "/api/*.go", "absolute"},
		{"StaysInTheWorkspace", "../x/*.go", `"." or ".."`},
		{"StaysInTheWorkspace", "a/./b", `"." or ".."`},
		{"NoEmptyFolder", "a//b", "empty folder"},
		{"NoEmptyFolder", "a/", "empty folder"},
		{"ForwardSlashes", `api\x.go`, "backslash"},
		{"NoClassesNorBraces", "api/[ab].go", "not supported"},
		{"NoClassesNorBraces", "api/*.{go,ts}", "not supported"},
		{"DoubleStarIsAWholeSegment", "api/**.go", `whole segment`},
		{"DoubleStarIsAWholeSegment", "a**/b", `whole segment`},
		{"NoControlCharacters", "a\tb", "control"},
		{"UTF8", "a\xffb", "UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			err := CheckGlob(tt.glob)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("CheckGlob(%q) = %v, want nil", tt.glob, err)
			case tt.want != "" && err == nil:
				t.Fatalf("CheckGlob(%q) = nil, want an error with %q", tt.glob, tt.want)
			case tt.want != "" && (!strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), strconv.Quote(tt.glob))):
				t.Errorf("CheckGlob(%q) = %q, want it to name the glob and say %q", tt.glob, err, tt.want)
			}
		})
	}
}

// refMatch is a second, plainly recursive reading of the rules of
// glob.go, against which the fuzzer checks MatchGlob.
func refMatch(g, p []string) bool {
	if len(g) == 0 {
		return len(p) == 0
	}
	if g[0] == "**" {
		for i := 0; i <= len(p); i++ {
			if refMatch(g[1:], p[i:]) {
				return true
			}
		}
		return false
	}
	return len(p) > 0 && refSegment([]rune(g[0]), []rune(p[0])) && refMatch(g[1:], p[1:])
}

func refSegment(g, s []rune) bool {
	if len(g) == 0 {
		return len(s) == 0
	}
	switch g[0] {
	case '*':
		for i := 0; i <= len(s); i++ {
			if refSegment(g[1:], s[i:]) {
				return true
			}
		}
		return false
	case '?':
		return len(s) > 0 && refSegment(g[1:], s[1:])
	}
	return len(s) > 0 && s[0] == g[0] && refSegment(g[1:], s[1:])
}

func FuzzMatchGlob(f *testing.F) {
	f.Add("api/**/*.go", "api/v1/x.go")
	f.Add("**/a/**/b?", "x/a/y/z/bc")
	f.Add("a*b*c", "aXbYbZc")
	f.Add("?é*", "éé")
	f.Add("**", "")
	f.Fuzz(func(t *testing.T, g, p string) {
		if len(g) > 40 || len(p) > 40 || !utf8.ValidString(p) || CheckGlob(g) != nil {
			return
		}
		want := refMatch(strings.Split(g, "/"), strings.Split(p, "/"))
		if got := MatchGlob(g, p); got != want {
			t.Fatalf("MatchGlob(%q, %q) = %v, the rules say %v", g, p, got, want)
		}
	})
}
