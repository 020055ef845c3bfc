package rulecheck

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/clumsies/clumsies/content"
)

// MaxFindings bounds the findings one check reports in one file.
const MaxFindings = 20

// Rule is a rule with its checks, as the catalog serves it.
type Rule struct {
	ID   string `json:"id"`
	Path string `json:"path"`
	// Hash is the content hash of the version whose checks these are.
	Hash string `json:"hash"`
	// Source is "team" for a rule of the team's catalog (its commands
	// never run), "" for the repository's own.
	Source string `json:"source,omitempty"`
	// Paths are the rule's globs (its scope).
	Paths  []string        `json:"paths"`
	Checks []content.Check `json:"checks"`
}

// Result is the outcome of one check on one file: a pass, or a failure
// at a line.
type Result struct {
	Rule       string `json:"rule"`
	Hash       string `json:"hash"`
	Constraint string `json:"constraint"`
	// Check is the check's index in the rule's checks, from 0.
	Check int    `json:"check"`
	Kind  string `json:"kind"` // forbid, require or run
	File  string `json:"file"`
	Pass  bool   `json:"pass"`
	// Line is where the finding is (from 1); 0 for a pass and for a
	// command's finding.
	Line int `json:"line,omitempty"`
	// Match is the hash (content.Hash) of the text a forbid pattern
	// matched, or of a command's output: never the text itself.
	Match   string `json:"match,omitempty"`
	Message string `json:"message,omitempty"`
	// Output is what a failing command printed, bounded (MaxOutput); the
	// agent reads it, the ledger keeps only its hash.
	Output string `json:"-"`
}

// Set is the compiled checks of some rules.
type Set struct {
	checks []compiled
}

// compiled is one check, compiled, with its rule.
type compiled struct {
	rule  *Rule
	index int
	c     content.Check
	re    *regexp.Regexp
	lit   literal // a literal every match holds (prefilter.go)
}

// Compile compiles the checks of rules. A pattern that does not compile
// (a rule published before its check was refused) is an error naming the
// rule and the check.
func Compile(rules []Rule) (*Set, error) {
	s := &Set{}
	for i := range rules {
		r := &rules[i]
		for j, c := range r.Checks {
			cc := compiled{rule: r, index: j, c: c}
			if p := c.Pattern(); p != "" {
				re, err := content.CompilePattern(p)
				if err != nil {
					return nil, fmt.Errorf("rule %s, check %d: %w", r.ID, j+1, err)
				}
				cc.re, cc.lit = re, requiredLiteral(p)
			}
			s.checks = append(s.checks, cc)
		}
	}
	return s, nil
}

// Len is how many checks the set holds.
func (s *Set) Len() int { return len(s.checks) }

// applies reports whether check c applies to file (workspace-relative):
// its rule's globs match it, and its own paths too where it has any.
func (c compiled) applies(file string) bool {
	in := func(globs []string) bool {
		for _, g := range globs {
			if content.MatchGlob(g, file) {
				return true
			}
		}
		return false
	}
	return in(c.rule.Paths) && (len(c.c.Paths) == 0 || in(c.c.Paths))
}

// Applies reports whether any check of the set applies to file.
func (s *Set) Applies(file string) bool {
	for _, c := range s.checks {
		if c.applies(file) {
			return true
		}
	}
	return false
}

// File runs the pattern checks that apply to file on the lines a change
// added to it: a forbid pattern fails at each line where one of its
// matches starts (MaxFindings at most), a require pattern fails at the
// first added line when no added line matches it. A check on a change
// that added no line passes. The results are in the order of the checks,
// a check's findings in line order.
func (s *Set) File(file string, added []Line) []Result {
	var out []Result
	var text, lower string
	var ascii bool
	var starts []int // offset in text of each added line
	for _, c := range s.checks {
		if c.re == nil || !c.applies(file) {
			continue
		}
		if starts == nil {
			text, starts = join(added)
			if ascii = isASCII(text); ascii {
				lower = strings.ToLower(text)
			}
		}
		r := c.result(file)
		absent := c.lit.absent(text, lower, ascii)
		switch {
		case len(added) == 0:
			out = append(out, r)
		case absent && c.c.Forbid != "":
			out = append(out, r)
		case absent:
			r.Pass, r.Line, r.Message = false, added[0].N, c.c.Message
			out = append(out, r)
		case c.c.Forbid != "":
			found := c.re.FindAllStringIndex(text, MaxFindings)
			for _, m := range found {
				f := r
				i := sort.SearchInts(starts, m[0]+1) - 1
				f.Pass, f.Line, f.Match, f.Message = false, added[i].N, content.Hash([]byte(text[m[0]:m[1]])), c.c.Message
				out = append(out, f)
			}
			if len(found) == 0 {
				out = append(out, r)
			}
		case !c.re.MatchString(text):
			r.Pass, r.Line, r.Message = false, added[0].N, c.c.Message
			out = append(out, r)
		default:
			out = append(out, r)
		}
	}
	return out
}

// result is a pass of check c on file.
func (c compiled) result(file string) Result {
	return Result{Rule: c.rule.ID, Hash: c.rule.Hash, Constraint: c.c.Constraint, Check: c.index, Kind: c.c.Kind(), File: file, Pass: true}
}

// join joins the texts of lines with LF, and returns the offset at which
// each starts.
func join(lines []Line) (string, []int) {
	starts := make([]int, len(lines))
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		starts[i] = b.Len()
		b.WriteString(l.Text)
	}
	return b.String(), starts
}

// Findings are the results of rs that failed, in their order.
func Findings(rs []Result) []Result {
	var out []Result
	for _, r := range rs {
		if !r.Pass {
			out = append(out, r)
		}
	}
	return out
}
