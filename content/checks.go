package content

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// A rule may declare checks of the work in its front matter, each tied to
// one of its constraints:
//
//	---
//	paths: ["src/api/**"]
//	checks:
//	  - constraint: "Errors/2"
//	    forbid: 'StatusInternalServerError'
//	    message: "never return a bare 500"
//	---
//
// A check is a pattern that must not appear (forbid) or must appear
// (require) in the lines a change adds to a file in scope, or a command
// (run) given the changed files. The "checks" key is read with a YAML
// decoder; the rest of the block keeps its own reading (ParsePaths).

// ErrBadChecks means a rule's front matter has a "checks" value that is not
// a list of checks as documented: the error Scan returns names the file;
// its message names the check and what is wrong with it.
var ErrBadChecks = errors.New("content: bad checks in the front matter")

// Bounds of a rule's checks.
const (
	// MaxChecks bounds the checks one rule declares.
	MaxChecks = 100
	// MaxPattern bounds a pattern's length, in bytes.
	MaxPattern = 1000
	// MaxCheckMessage bounds a check's message, in bytes.
	MaxCheckMessage = 500
)

// Check is one check of a rule, as its front matter declares it.
type Check struct {
	// Constraint is the id of the rule's constraint the check stands for
	// ("Errors/2"): a finding names it.
	Constraint string `json:"constraint"`
	// Exactly one of Forbid, Require and Run is set. Forbid and Require
	// are RE2 patterns (Go's regexp, read in multi-line mode: ^ and $ match
	// at each line), matched against the lines a change adds.
	Forbid  string `json:"forbid,omitempty"`
	Require string `json:"require,omitempty"`
	// Run is a command line run by /bin/sh with the changed files in
	// scope as its arguments ($1, $2, ...); a non-zero exit is a finding.
	Run string `json:"run,omitempty"`
	// Message says what is wrong, for the agent and the people reading
	// the findings.
	Message string `json:"message,omitempty"`
	// Paths, when set, narrow the check to the files of the rule's scope
	// that one of these globs also matches.
	Paths []string `json:"paths,omitempty"`
}

// Kind is "forbid", "require" or "run".
func (c Check) Kind() string {
	switch {
	case c.Forbid != "":
		return "forbid"
	case c.Require != "":
		return "require"
	}
	return "run"
}

// Pattern is the check's pattern; "" for a command.
func (c Check) Pattern() string { return c.Forbid + c.Require }

// yamlCheck is a check as the YAML decoder reads it: unknown keys are
// refused, and every value must be a string (or a list of strings).
type yamlCheck struct {
	Constraint string   `yaml:"constraint"`
	Forbid     string   `yaml:"forbid"`
	Require    string   `yaml:"require"`
	Run        string   `yaml:"run"`
	Message    string   `yaml:"message"`
	Paths      []string `yaml:"paths"`
}

// ParseChecks returns the checks of the "checks" key of body's front
// matter, in their order; nil when there is none. name is the file's name
// (NameOf), for the ids of a rule without sections. Each check must name a
// constraint of the body (ParseConstraints), set exactly one of forbid,
// require and run, with a pattern that compiles, is at most MaxPattern
// bytes and does not match an empty text, a message of at most
// MaxCheckMessage bytes, and paths that CheckGlob accepts. Any other
// shape is an error wrapping ErrBadChecks that names the check (by its
// number from 1 and its constraint) and what is wrong.
func ParseChecks(name, body string) ([]Check, error) {
	block, rest := frontMatter(body)
	raw, ok := keyBlock(block, "checks")
	if !ok {
		return nil, nil
	}
	var doc struct {
		Checks []yamlCheck `yaml:"checks"`
	}
	dec := yaml.NewDecoder(strings.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrBadChecks, yamlMessage(err))
	}
	if len(doc.Checks) > MaxChecks {
		return nil, fmt.Errorf("%w: %d checks, more than %d", ErrBadChecks, len(doc.Checks), MaxChecks)
	}
	ids := map[string]bool{}
	for _, c := range ParseConstraints(name, rest) {
		ids[c.ID] = true
	}
	out := make([]Check, 0, len(doc.Checks))
	for i, y := range doc.Checks {
		c := Check(y)
		if err := checkCheck(c, ids); err != nil {
			return nil, fmt.Errorf("%w: check %d (constraint %q): %w", ErrBadChecks, i+1, c.Constraint, err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// checkCheck says what is wrong with c, whose rule has the constraints
// ids; nil when nothing is.
func checkCheck(c Check, ids map[string]bool) error {
	set := 0
	for _, v := range []string{c.Forbid, c.Require, c.Run} {
		if v != "" {
			set++
		}
	}
	switch {
	case c.Constraint == "":
		return errors.New("it names no constraint; add constraint: with the id of one of the rule's constraints")
	case !ids[c.Constraint]:
		return fmt.Errorf("the rule has no constraint %q; its constraints are %s", c.Constraint, idList(ids))
	case set != 1:
		return errors.New("it must set exactly one of forbid, require and run")
	case len(c.Message) > MaxCheckMessage:
		return fmt.Errorf("its message is longer than %d bytes", MaxCheckMessage)
	case !utf8.ValidString(c.Message) || !utf8.ValidString(c.Run):
		return errors.New("it is not valid UTF-8")
	case strings.ContainsAny(c.Run, "\x00"):
		return errors.New("its command holds a NUL byte")
	}
	if p := c.Pattern(); p != "" {
		if len(p) > MaxPattern {
			return fmt.Errorf("its pattern is longer than %d bytes", MaxPattern)
		}
		re, err := CompilePattern(p)
		if err != nil {
			return fmt.Errorf("its pattern %q does not compile: %w", p, err)
		}
		if re.MatchString("") {
			return fmt.Errorf("its pattern %q matches an empty text, so it would match everywhere", p)
		}
	}
	for _, g := range c.Paths {
		if err := CheckGlob(g); err != nil {
			return err
		}
	}
	return nil
}

// CompilePattern compiles a check's pattern as checks match it: RE2, in
// multi-line mode.
func CompilePattern(p string) (*regexp.Regexp, error) {
	return regexp.Compile("(?m:" + p + ")")
}

// idList names the constraint ids of a rule, sorted, or says there are
// none.
func idList(ids map[string]bool) string {
	if len(ids) == 0 {
		return "none"
	}
	list := make([]string, 0, len(ids))
	for id := range ids {
		list = append(list, fmt.Sprintf("%q", id))
	}
	slices.Sort(list)
	return strings.Join(list, ", ")
}

// keyBlock returns the lines of the top-level key of a front matter block
// (the key's line and the lines after it, up to the next line at column 0
// that is not blank or a comment), as a YAML document of that key alone,
// and whether the key is there. The other keys are never read, so a value
// elsewhere that YAML would refuse (`globs: *.ts`) does not matter.
func keyBlock(block []string, key string) (string, bool) {
	for i, l := range block {
		k, _, ok := strings.Cut(l, ":")
		if !ok || k != key {
			continue
		}
		var b bytes.Buffer
		b.WriteString(l)
		b.WriteByte('\n')
		for _, next := range block[i+1:] {
			t := strings.TrimSpace(next)
			if t != "" && !strings.HasPrefix(t, "#") && next[0] != ' ' && next[0] != '\t' && next[0] != '-' {
				break
			}
			b.WriteString(next)
			b.WriteByte('\n')
		}
		return b.String(), true
	}
	return "", false
}

// yamlMessage is the YAML decoder's error without its package prefix.
func yamlMessage(err error) string {
	return strings.TrimPrefix(err.Error(), "yaml: ")
}
