package content

import (
	"errors"
	"fmt"
)

// ErrNotARule means a rule or workflow lacks what every rule has: an H1
// title, a description under it, and "## " sections.
var ErrNotARule = errors.New("content: not a well-formed rule")

// CheckRule says whether body is a well-formed rule or workflow, read the
// way ParseConstraints reads it: an H1 title ("# "), a description (text
// before the first "## " heading, besides the title), and at least one
// "## " section. Headings inside fenced code do not count. It returns nil,
// or an error wrapping ErrNotARule that names what is missing.
func CheckRule(body string) error {
	lines := splitLines(body)
	h1 := false
	for _, l := range lines {
		if !l.code && headingLevel(l.text) == 1 {
			h1 = true
			break
		}
	}
	preamble, sections := splitSections(lines)
	switch {
	case !h1:
		return fmt.Errorf("%w: it has no title (a first line \"# Title\")", ErrNotARule)
	case joinLines(preamble) == "":
		return fmt.Errorf("%w: it has no description (a paragraph under the title saying what the rule is for)", ErrNotARule)
	case len(sections) == 0:
		return fmt.Errorf("%w: it has no sections (\"## \" headings whose items agents refer to)", ErrNotARule)
	}
	return nil
}
