package rulecheck

import (
	"strconv"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/content"
)

// apiRule is a rule over src/api/** with a forbid and a require check, the
// require one narrowed to Go files.
func apiRule() Rule {
	return Rule{ID: "p-api", Hash: "sha256:v1", Paths: []string{"src/api/**"}, Checks: []content.Check{
		{Constraint: "Errors/2", Forbid: `StatusInternalServerError`, Message: "never return a bare 500"},
		{Constraint: "Errors/1", Require: `^// errors:`, Paths: []string{"src/api/*.go"}},
	}}
}

func compile(t testing.TB, rules ...Rule) *Set {
	t.Helper()
	s, err := Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// brief is a result as "constraint:pass|line".
func brief(rs []Result) []string {
	var out []string
	for _, r := range rs {
		s := r.Constraint + ":"
		if r.Pass {
			s += "pass"
		} else {
			s += "fail@" + strconv.Itoa(r.Line)
		}
		out = append(out, s)
	}
	return out
}

func TestSetFile(t *testing.T) {
	s := compile(t, apiRule())
	tests := []struct {
		name   string
		file   string
		before string
		after  string
		want   []string
	}{
		{"OutOfScope", "web/x.go", "", "w.WriteHeader(http.StatusInternalServerError)\n", nil},
		{"Violation", "src/api/h.go", "package api\n", "package api\n// errors: mapped\nw.WriteHeader(http.StatusInternalServerError)\n",
			[]string{"Errors/2:fail@3", "Errors/1:pass"}},
		{"OldViolationNotAdded", "src/api/h.go", "x(StatusInternalServerError)\n", "x(StatusInternalServerError)\n// errors: ok\n",
			[]string{"Errors/2:pass", "Errors/1:pass"}},
		{"RequireMissing", "src/api/h.go", "", "package api\nfunc f() {}\n", []string{"Errors/2:pass", "Errors/1:fail@1"}},
		{"RequireNarrowedAway", "src/api/v1/h.ts", "", "StatusInternalServerError; StatusInternalServerError\n",
			[]string{"Errors/2:fail@1", "Errors/2:fail@1"}},
		{"NothingAdded", "src/api/h.go", "a\n", "", []string{"Errors/2:pass", "Errors/1:pass"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := brief(s.File(tt.file, Added(tt.before, tt.after)))
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSetFile_Finding: a finding names the rule, its version, the
// constraint and the message, and holds the hash of the matched text,
// never the text.
func TestSetFile_Finding(t *testing.T) {
	rs := compile(t, apiRule()).File("src/api/h.go", []Line{{7, "return http.StatusInternalServerError"}})
	f := rs[0]
	want := Result{Rule: "p-api", Hash: "sha256:v1", Constraint: "Errors/2", Check: 0, Kind: "forbid", File: "src/api/h.go",
		Line: 7, Match: content.Hash([]byte("StatusInternalServerError")), Message: "never return a bare 500"}
	if f != want {
		t.Errorf("got %+v, want %+v", f, want)
	}
}

func TestSetFile_Bounded(t *testing.T) {
	rule := Rule{ID: "p", Paths: []string{"**"}, Checks: []content.Check{{Constraint: "C", Forbid: "x"}}}
	got := compile(t, rule).File("a", Added("", strings.Repeat("x x x\n", 100)))
	if len(got) != MaxFindings {
		t.Errorf("%d findings, want %d", len(got), MaxFindings)
	}
}

// FuzzSetFile: any pattern the publish accepts, on any text, runs
// without a panic, and its findings point at added lines.
func FuzzSetFile(f *testing.F) {
	f.Add(`a+b`, "aab\nb\n", "")
	f.Add(`^x$`, "x\n", "y\n")
	f.Add(`(a|b)*c`, strings.Repeat("ab", 50)+"\n", "")
	f.Add(`(?i)secret`, "ſecret\n", "")
	f.Add(`(?i)todo:\s*x`, "TODO:  X\n", "")
	f.Fuzz(func(t *testing.T, pattern, after, before string) {
		if len(pattern) > content.MaxPattern {
			return
		}
		re, err := content.CompilePattern(pattern)
		if err != nil || re.MatchString("") {
			return // refused at publish
		}
		rule := Rule{ID: "p", Paths: []string{"**"}, Checks: []content.Check{{Constraint: "C", Forbid: pattern}, {Constraint: "C", Require: pattern}}}
		added := Added(before, after)
		lineOK := map[int]bool{}
		for _, l := range added {
			lineOK[l.N] = true
		}
		text, _ := join(added)
		matches := re.MatchString(text)
		for _, r := range compile(t, rule).File("a", added) {
			if !r.Pass && !lineOK[r.Line] {
				t.Fatalf("finding at line %d, which the change did not add (%v)", r.Line, added)
			}
			// The prefilter never changes an outcome: a forbid check fails
			// and a require check passes exactly when the pattern matches.
			wantPass := matches
			if r.Kind == "forbid" {
				wantPass = !matches
			}
			if len(added) > 0 && r.Pass != wantPass {
				t.Fatalf("%s check of %q on %q: pass %v, but the pattern matches: %v", r.Kind, pattern, text, r.Pass, matches)
			}
		}
	})
}
