package content

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// checkRule is the body of a rule with two constraints, Errors/1 and
// Errors/2, after front matter fm (without its fences).
func checkRule(fm string) string {
	return "---\n" + fm + "---\n# API\n\nHow handlers answer.\n\n## Errors\n\n- Map errors once.\n- Never a bare 500.\n"
}

func TestParseChecks(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []Check
	}{
		{"NoFrontMatter", "# T\n\n## Errors\n- x\n", nil},
		{"NoChecksKey", checkRule("paths: [\"api/**\"]\n"), nil},
		{
			name: "Forbid",
			body: checkRule("paths: [\"src/api/**\"]\nchecks:\n  - constraint: \"Errors/2\"\n    forbid: 'StatusInternalServerError'\n    message: \"never return a bare 500\"\n"),
			want: []Check{{Constraint: "Errors/2", Forbid: "StatusInternalServerError", Message: "never return a bare 500"}},
		},
		{
			name: "RequireWithPathsAndRun",
			body: checkRule("checks:\n- constraint: Errors/1\n  require: '^// errors:'\n  paths: [\"src/api/*.go\"]\n- constraint: Errors/2\n  run: go vet ./...\nglobs: *.ts\n"),
			want: []Check{
				{Constraint: "Errors/1", Require: "^// errors:", Paths: []string{"src/api/*.go"}},
				{Constraint: "Errors/2", Run: "go vet ./..."},
			},
		},
		{
			// A key YAML cannot read (an alias-looking glob) elsewhere in
			// the block leaves the checks alone.
			name: "OtherKeysNotYAML",
			body: checkRule("globs: *.ts\nchecks:\n  # the 500 rule\n  - constraint: Errors/2\n    forbid: \"500\"\nalwaysApply: false\n"),
			want: []Check{{Constraint: "Errors/2", Forbid: "500"}},
		},
		{"EmptyList", checkRule("checks: []\n"), nil},
		{
			name: "CRLF",
			body: strings.ReplaceAll(checkRule("checks:\n  - constraint: Errors/1\n    forbid: x\n"), "\n", "\r\n"),
			want: []Check{{Constraint: "Errors/1", Forbid: "x"}},
		},
		{
			name: "NoSectionsIdIsTheName",
			body: "---\nchecks:\n  - constraint: API\n    forbid: panic\\(\n---\nDo not panic.\n",
			want: []Check{{Constraint: "API", Forbid: `panic\(`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseChecks("API", tt.body)
			if err != nil {
				t.Fatalf("ParseChecks: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseChecks_Errors(t *testing.T) {
	tests := []struct {
		name string
		fm   string
		want string // a part of the message
	}{
		{"BadPattern", "checks:\n  - constraint: Errors/2\n    forbid: 'a(b'\n", `check 1 (constraint "Errors/2"): its pattern "a(b" does not compile`},
		{"NoSuchConstraint", "checks:\n  - constraint: Errors/3\n    forbid: x\n", `no constraint "Errors/3"; its constraints are "Errors/1", "Errors/2"`},
		{"NoConstraint", "checks:\n  - forbid: x\n", "names no constraint"},
		{"TwoKinds", "checks:\n  - constraint: Errors/1\n    forbid: x\n    require: y\n", "exactly one of forbid, require and run"},
		{"NoKind", "checks:\n  - constraint: Errors/1\n    message: m\n", "exactly one of"},
		{"UnknownKey", "checks:\n  - constraint: Errors/1\n    forbids: x\n", "forbids"},
		{"NotAList", "checks: x\n", "cannot unmarshal"},
		{"ListPattern", "checks:\n  - constraint: Errors/1\n    forbid: [a, b]\n", "cannot unmarshal"},
		{"BadGlob", "checks:\n  - constraint: Errors/1\n    forbid: x\n    paths: [\"/abs/*\"]\n", `glob "/abs/*"`},
		{"LongPattern", "checks:\n  - constraint: Errors/1\n    forbid: " + strings.Repeat("a", MaxPattern+1) + "\n", "longer than"},
		{"LongMessage", "checks:\n  - constraint: Errors/1\n    forbid: x\n    message: " + strings.Repeat("m", MaxCheckMessage+1) + "\n", "message is longer"},
		{"SecondCheckNamed", "checks:\n  - constraint: Errors/1\n    forbid: x\n  - constraint: Errors/2\n    require: '['\n", "check 2 (constraint \"Errors/2\")"},
		{"MatchesEmpty", "checks:\n  - constraint: Errors/1\n    forbid: 'x*'\n", "matches an empty text"},
		{"TooMany", "checks:\n" + strings.Repeat("  - {constraint: Errors/1, forbid: x}\n", MaxChecks+1), "more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseChecks("API", checkRule(tt.fm))
			if !errors.Is(err, ErrBadChecks) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want ErrBadChecks saying %q", err, tt.want)
			}
		})
	}
}

// TestScan_BadCheck: a publish refuses a rule whose check does not
// compile, naming the file and the check, as it does a bad glob.
func TestScan_BadCheck(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"rules/api/HANDLERS.md": checkRule("checks:\n  - constraint: Errors/2\n    forbid: '(?P<x'\n"),
	})
	scanErr(t, root, "rules/api/HANDLERS.md", ErrBadChecks)
	_, err := Scan(root)
	if !strings.Contains(err.Error(), "rules/api/HANDLERS.md: ") || !strings.Contains(err.Error(), "check 1 (constraint \"Errors/2\")") {
		t.Errorf("the error %q does not name the file and the check", err)
	}
	// Fixed, it publishes.
	if err := os.WriteFile(filepath.Join(root, "rules/api/HANDLERS.md"), []byte(checkRule("checks:\n  - constraint: Errors/2\n    forbid: '500'\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Scan(root); err != nil {
		t.Fatalf("Scan of the fixed rule: %v", err)
	}
}

func FuzzParseChecks(f *testing.F) {
	f.Add(checkRule("checks:\n  - constraint: Errors/2\n    forbid: 'a+b'\n    paths: [x/*]\n"))
	f.Add(checkRule("checks:\n- {constraint: Errors/1, require: '^x$', message: m}\n"))
	f.Add(checkRule("checks: &a [*a]\n"))
	f.Fuzz(func(t *testing.T, body string) {
		checks, err := ParseChecks("F", body)
		if err != nil {
			if !errors.Is(err, ErrBadChecks) {
				t.Fatalf("error %v does not wrap ErrBadChecks", err)
			}
			return
		}
		for _, c := range checks {
			if c.Pattern() != "" {
				if _, err := CompilePattern(c.Pattern()); err != nil {
					t.Fatalf("ParseChecks returned the pattern %q, which does not compile: %v", c.Pattern(), err)
				}
			}
		}
	})
}
