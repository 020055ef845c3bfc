package content

import (
	"fmt"
	"strconv"
	"strings"
)

// Constraint is one referable part of a rule or workflow file, as memload
// lists it and memref refers to it.
type Constraint struct {
	ID       string `json:"id"`       // unique within the file: "Title", "Title/N", "Title (2)/N"
	Name     string `json:"name"`     // the section title, or the file's name for a file without sections
	Text     string `json:"text"`     // what the constraint says
	TextHash string `json:"textHash"` // Hash([]byte(Text))
}

// ParseConstraints returns the constraints of a rule or workflow file in the
// order they appear. name is the file's name (see NameOf). The result depends
// only on the arguments. CRLF and lone CR line endings read as LF.
//
// The rules, numbered as in the protocol:
//
//  1. "# " (H1) lines are titles, never constraints. An H1 line also ends
//     the section it appears in; text after it belongs to no constraint
//     until the next "## " line.
//  2. Each "## Title" line at column 0 opens a section titled Title, with
//     surrounding white space and a closing run of '#' removed. "###" and
//     deeper headings are section text. Sections titled Example or Examples
//     (any case), or with an empty title, are not referable.
//  3. In a section with top-level list items ("- ", "* " or "N. " at column
//     0), each item is one constraint with id "Title/N", N counting from 1.
//     Its text is the item without its marker followed by its continuation
//     lines, each trimmed, blank ones dropped, joined with single spaces
//     (an empty item still counts and yields an empty text).
//     An item continues through indented lines (nested lists included),
//     blank lines, and non-indented lines that directly follow a non-blank
//     line of the item. It ends at the next top-level item, at the end of
//     the section, or at a non-indented line that follows a blank line or is
//     a heading or a thematic break; such a line and the lines that continue
//     it belong to no constraint, as does text before the first item.
//  4. A section without top-level list items is one constraint with id
//     "Title" whose text is the trimmed section body. An empty body yields
//     none.
//  5. A file without "## " headings is one constraint whose id and name are
//     name and whose text is the trimmed body without H1 lines. An empty
//     text yields none. In a file with sections, text before the first
//     section belongs to no constraint.
//  6. Ids are unique within the file. A section whose title an earlier
//     referable section already used (even one without constraints) gets
//     " (2)", " (3)", ... after its title in its ids: the smallest number
//     that makes all of them unique.
//  7. Name is the section title; TextHash is Hash([]byte(Text)).
//  8. Lines inside fenced code blocks never open sections or items and
//     never end an item; they are text of whatever holds their opening fence.
func ParseConstraints(name, body string) []Constraint {
	preamble, sections := splitSections(splitLines(body))
	if sections == nil {
		text := joinLines(preamble)
		if text == "" {
			return nil
		}
		return []Constraint{newConstraint(name, name, text)}
	}
	var out []Constraint
	ids := newIDSet()
	for _, sec := range sections {
		if !referable(sec.title) {
			continue
		}
		if items, ok := listItems(sec.body); ok {
			base := ids.claim(sec.title, len(items), true)
			for i, text := range items {
				out = append(out, newConstraint(base+"/"+strconv.Itoa(i+1), sec.title, text))
			}
			continue
		}
		text := joinLines(sec.body)
		n := 1
		if text == "" {
			n = 0
		}
		if base := ids.claim(sec.title, n, false); n == 1 {
			out = append(out, newConstraint(base, sec.title, text))
		}
	}
	return out
}

func newConstraint(id, name, text string) Constraint {
	return Constraint{ID: id, Name: name, Text: text, TextHash: Hash([]byte(text))}
}

// section is a "## " section of a file: its title and the lines after its
// heading, up to the next H1 or H2 heading.
type section struct {
	title string
	body  []line
}

// splitSections splits lines into the text before the first "## " heading,
// without H1 lines, and the sections. sections is nil when the file has no
// "## " heading.
func splitSections(lines []line) (preamble []line, sections []section) {
	cur := -1 // index of the open section, -1 when none is open
	for _, l := range lines {
		if !l.code {
			switch headingLevel(l.text) {
			case 1:
				cur = -1
				continue
			case 2:
				sections = append(sections, section{title: headingTitle(l.text, 2)})
				cur = len(sections) - 1
				continue
			}
		}
		switch {
		case cur >= 0:
			sections[cur].body = append(sections[cur].body, l)
		case sections == nil:
			preamble = append(preamble, l)
		}
	}
	return preamble, sections
}

// referable reports whether a section with this title yields constraints.
func referable(title string) bool {
	return title != "" && !strings.EqualFold(title, "example") && !strings.EqualFold(title, "examples")
}

// listItems returns the texts of the top-level list items of a section body
// (rule 3); ok is false when the body has none.
func listItems(body []line) (items []string, ok bool) {
	var parts [][]string // the trimmed lines of each item
	open := false        // the last item still takes continuation lines
	afterBlank := false  // the previous line was blank (and not code)
	for _, l := range body {
		text := l.text
		switch {
		case l.code:
			// Fenced code follows its opening fence.
		case isBlank(text):
			afterBlank = true
			continue
		case !isIndented(text):
			if rest, isItem := listItem(text); isItem {
				parts = append(parts, nil)
				open, text = true, rest
			} else if afterBlank || headingLevel(text) > 0 || isThematicBreak(text) {
				open = false
			}
		}
		afterBlank = false
		if t := strings.TrimSpace(text); open && t != "" {
			parts[len(parts)-1] = append(parts[len(parts)-1], t)
		}
	}
	if parts == nil {
		return nil, false
	}
	items = make([]string, len(parts))
	for i, p := range parts {
		items[i] = strings.Join(p, " ")
	}
	return items, true
}

// joinLines returns the lines joined with LF and trimmed.
func joinLines(lines []line) string {
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.text
	}
	return strings.TrimSpace(strings.Join(texts, "\n"))
}

// idSet hands out the id bases of a file's sections (rule 6). Every check
// is a map look-up, so even a hostile file costs linear time.
type idSet struct {
	bases map[string]bool // bases claimed by earlier referable sections
	ids   map[string]bool // ids given to earlier constraints
	// firstItem maps P to the smallest N of the ids of the form "P/N" given
	// so far (N a positive decimal without leading zeros): a list section
	// with base P and n items collides with them exactly when N <= n.
	firstItem map[string]int
	// next is, per title, the first suffix number worth trying: every
	// smaller one is taken, and taken stays taken.
	next map[string]int
}

func newIDSet() *idSet {
	return &idSet{
		bases:     map[string]bool{},
		ids:       map[string]bool{},
		firstItem: map[string]int{},
		next:      map[string]int{},
	}
}

// claim returns the id base for a section titled title that yields n
// constraints, with ids "base/1" ... "base/n" when list is true and "base"
// otherwise (n is 0 or 1 then), and records the base and those ids.
func (s *idSet) claim(title string, n int, list bool) string {
	k := max(s.next[title], 1)
	// A copy: the title is a piece of the file's body, and an id kept
	// alone (a read model keeps only the ids) must not hold the body.
	base := strings.Clone(title)
	for ; ; k++ {
		if k > 1 {
			base = fmt.Sprintf("%s (%d)", title, k)
		}
		if s.free(base, n, list) {
			break
		}
	}
	s.next[title] = k + 1
	s.bases[base] = true
	switch {
	case list:
		for i := 1; i <= n; i++ {
			s.add(base + "/" + strconv.Itoa(i))
		}
	case n > 0:
		s.add(base)
	}
	return base
}

// free reports whether base and the ids claim would derive from it are all
// unclaimed.
func (s *idSet) free(base string, n int, list bool) bool {
	switch {
	case s.bases[base]:
		return false
	case list:
		first, ok := s.firstItem[base]
		return !ok || first > n
	case n > 0:
		return !s.ids[base]
	}
	return true
}

// add records id.
func (s *idSet) add(id string) {
	s.ids[id] = true
	i := strings.LastIndexByte(id, '/')
	if i < 0 {
		return
	}
	prefix, num := id[:i], id[i+1:]
	if n, err := strconv.Atoi(num); err == nil && n > 0 && strconv.Itoa(n) == num {
		if first, ok := s.firstItem[prefix]; !ok || n < first {
			s.firstItem[prefix] = n
		}
	}
}
