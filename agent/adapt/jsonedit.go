package adapt

import (
	"bytes"
	"fmt"
	"strings"
)

// A JSON edit changes only the bytes of what it adds or removes. Adding a
// member (or an array element) after the last one inserts
// `,<newline><indent>"key": value`; removing the last one deletes exactly
// that, so adding then removing gives back the original bytes. Containers
// that an edit creates are removed again when removing leaves them empty.

// doc is a document being edited: its bytes and their parse.
type doc struct {
	b    []byte
	root *jnode
	unit string // one level of indentation
	crlf bool   // the file ends its lines with \r\n: so do the lines adapt adds
}

func newDoc(b []byte) (*doc, error) {
	root, err := parseJSON(b)
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, fmt.Errorf("the top level is not an object")
	}
	d := &doc{b: b, root: root, crlf: bytes.Contains(b, []byte("\r\n"))}
	d.unit = d.detectUnit()
	return d, nil
}

// replace puts s in place of b[from:to] and parses again.
func (d *doc) replace(from, to int, s string) error {
	if d.crlf {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	nb := make([]byte, 0, len(d.b)-(to-from)+len(s))
	nb = append(nb, d.b[:from]...)
	nb = append(nb, s...)
	nb = append(nb, d.b[to:]...)
	root, err := parseJSON(nb)
	if err != nil {
		return fmt.Errorf("edit made the document unreadable (%v); nothing was written", err)
	}
	d.b, d.root = nb, root
	return nil
}

// lineIndent returns the whitespace that starts the line holding pos.
func (d *doc) lineIndent(pos int) string {
	start := pos
	for start > 0 && d.b[start-1] != '\n' {
		start--
	}
	end := start
	for end < len(d.b) && (d.b[end] == ' ' || d.b[end] == '\t') {
		end++
	}
	return string(d.b[start:end])
}

// ownLine reports whether only whitespace comes before pos on its line.
func (d *doc) ownLine(pos int) bool {
	for i := pos - 1; i >= 0; i-- {
		switch d.b[i] {
		case '\n':
			return true
		case ' ', '\t':
		default:
			return false
		}
	}
	return true
}

// detectUnit finds the indentation of the first member of the top level
// that sits on its own line; two spaces when there is none.
func (d *doc) detectUnit() string {
	for _, m := range d.root.members {
		if d.ownLine(m.keyStart) {
			if u := strings.TrimPrefix(d.lineIndent(m.keyStart), d.lineIndent(d.root.start)); u != "" {
				return u
			}
		}
	}
	return "  "
}

// childIndent returns the indentation of the members of n, and whether
// they are laid out one per line.
func (d *doc) childIndent(n *jnode) (string, bool) {
	first := -1
	if len(n.members) > 0 {
		first = n.members[0].keyStart
	} else if len(n.elems) > 0 {
		first = n.elems[0].start
	}
	if first >= 0 {
		if d.ownLine(first) {
			return d.lineIndent(first), true
		}
		return "", false
	}
	return d.lineIndent(n.start) + d.unit, true
}

// insertMember adds key: v as the last member of object n.
func (d *doc) insertMember(n *jnode, key string, v any) error {
	return d.insert(n, quote(key)+": ", v)
}

// insertElement adds v as the last element of array n.
func (d *doc) insertElement(n *jnode, v any) error { return d.insert(n, "", v) }

func (d *doc) insert(n *jnode, prefix string, v any) error {
	indent, lines := d.childIndent(n)
	if n.empty() {
		outer := d.lineIndent(n.start)
		return d.replace(n.start+1, n.end-1, "\n"+indent+prefix+render(v, indent, d.unit, false)+"\n"+outer)
	}
	var last int // insert after the last value
	if len(n.members) > 0 {
		last = n.members[len(n.members)-1].val.end
	} else {
		last = n.elems[len(n.elems)-1].end
	}
	if !lines {
		return d.replace(last, last, ", "+prefix+render(v, "", d.unit, true))
	}
	return d.replace(last, last, ",\n"+indent+prefix+render(v, indent, d.unit, false))
}

// removeAt deletes member or element i of n.
func (d *doc) removeAt(n *jnode, i int) error {
	span := func(j int) (int, int) {
		if n.kind == '{' {
			return n.members[j].keyStart, n.members[j].val.end
		}
		return n.elems[j].start, n.elems[j].end
	}
	count := len(n.members) + len(n.elems)
	start, end := span(i)
	switch {
	case count == 1:
		return d.replace(n.start+1, n.end-1, "")
	case i > 0:
		_, prevEnd := span(i - 1)
		return d.replace(prevEnd, end, "")
	default:
		next, _ := span(1)
		return d.replace(start, next, "")
	}
}

// setValue replaces the value of member i of object n.
func (d *doc) setValue(n *jnode, i int, v any) error {
	val := n.members[i].val
	indent, lines := d.childIndent(n)
	if !lines {
		return d.replace(val.start, val.end, render(v, "", d.unit, true))
	}
	return d.replace(val.start, val.end, render(v, indent, d.unit, false))
}

// walk follows path (object keys) from the top level. It returns the
// nodes passed, the top level first; fewer than len(path)+1 when a key is
// missing.
func (d *doc) walk(path []string) ([]*jnode, error) {
	nodes := []*jnode{d.root}
	for _, k := range path {
		n := nodes[len(nodes)-1]
		if n.kind != '{' {
			return nil, fmt.Errorf("%s is not an object", strings.Join(path[:len(nodes)-1], "."))
		}
		i := n.member(k)
		if i < 0 {
			break
		}
		nodes = append(nodes, n.members[i].val)
	}
	return nodes, nil
}

// nest wraps v in objects for keys, the outermost first.
func nest(keys []string, v any) any {
	for i := len(keys) - 1; i >= 0; i-- {
		v = obj{{keys[i], v}}
	}
	return v
}

// setMember makes the member at path hold v, creating the objects on the
// way. It reports whether the document changed.
func (d *doc) setMember(path []string, v any) (bool, error) {
	nodes, err := d.walk(path)
	if err != nil {
		return false, err
	}
	if len(nodes) == len(path)+1 {
		last := nodes[len(nodes)-1]
		if sameJSON(d.b[last.start:last.end], v) {
			return false, nil
		}
		parent := nodes[len(nodes)-2]
		return true, d.setValue(parent, parent.member(path[len(path)-1]), v)
	}
	at := nodes[len(nodes)-1]
	if at.kind != '{' {
		return false, fmt.Errorf("%s is not an object", strings.Join(path[:len(nodes)-1], "."))
	}
	rest := path[len(nodes)-1:]
	return true, d.insertMember(at, rest[0], nest(rest[1:], v))
}

// hasMember reports whether path exists and holds v.
func (d *doc) hasMember(path []string, v any) bool {
	nodes, err := d.walk(path)
	if err != nil || len(nodes) != len(path)+1 {
		return false
	}
	last := nodes[len(nodes)-1]
	return sameJSON(d.b[last.start:last.end], v)
}

// removeMember deletes the member at path, then the objects on the way
// that this leaves empty (never the top level). It reports whether the
// document changed.
func (d *doc) removeMember(path []string) (bool, error) {
	nodes, err := d.walk(path)
	if err != nil || len(nodes) != len(path)+1 {
		return false, err
	}
	parent := nodes[len(nodes)-2]
	if err := d.removeAt(parent, parent.member(path[len(path)-1])); err != nil {
		return false, err
	}
	return true, d.prune(path[:len(path)-1])
}

// prune removes the container at path if it is empty, and then its
// parents that this leaves empty.
func (d *doc) prune(path []string) error {
	for len(path) > 0 {
		nodes, err := d.walk(path)
		if err != nil || len(nodes) != len(path)+1 || !nodes[len(nodes)-1].empty() || nodes[len(nodes)-1].kind == 0 {
			return err
		}
		parent := nodes[len(nodes)-2]
		if err := d.removeAt(parent, parent.member(path[len(path)-1])); err != nil {
			return err
		}
		path = path[:len(path)-1]
	}
	return nil
}

// ownElement finds the element of the array at path that ours accepts.
func (d *doc) ownElement(path []string, ours func(raw string) bool) (*jnode, int, error) {
	nodes, err := d.walk(path)
	if err != nil || len(nodes) != len(path)+1 {
		return nil, -1, err
	}
	arr := nodes[len(nodes)-1]
	if arr.kind != '[' {
		return nil, -1, fmt.Errorf("%s is not an array", strings.Join(path, "."))
	}
	for i, e := range arr.elems {
		if ours(string(d.b[e.start:e.end])) {
			return arr, i, nil
		}
	}
	return arr, -1, nil
}

// putElement makes the array at path hold v as the element ours accepts:
// it replaces that element, or appends v (creating the array and the
// objects on the way). It reports whether the document changed.
func (d *doc) putElement(path []string, v any, ours func(string) bool) (bool, error) {
	arr, i, err := d.ownElement(path, ours)
	if err != nil {
		return false, err
	}
	switch {
	case arr == nil:
		return d.setMember(path, []any{v})
	case i < 0:
		return true, d.insertElement(arr, v)
	}
	e := arr.elems[i]
	if sameJSON(d.b[e.start:e.end], v) {
		return false, nil
	}
	indent, lines := d.childIndent(arr)
	if !lines {
		return true, d.replace(e.start, e.end, render(v, "", d.unit, true))
	}
	return true, d.replace(e.start, e.end, render(v, indent, d.unit, false))
}

// hasElement reports whether the array at path holds v as its own element.
func (d *doc) hasElement(path []string, v any, ours func(string) bool) bool {
	arr, i, err := d.ownElement(path, ours)
	if err != nil || arr == nil || i < 0 {
		return false
	}
	e := arr.elems[i]
	return sameJSON(d.b[e.start:e.end], v)
}

// dropElements removes every element ours accepts from the array at path,
// then the containers this leaves empty. It reports whether the document
// changed.
func (d *doc) dropElements(path []string, ours func(string) bool) (bool, error) {
	changed := false
	for {
		arr, i, err := d.ownElement(path, ours)
		if err != nil {
			return changed, err
		}
		if arr == nil || i < 0 {
			break
		}
		if err := d.removeAt(arr, i); err != nil {
			return changed, err
		}
		changed = true
	}
	if !changed {
		return false, nil
	}
	return true, d.prune(path)
}
