package adapt

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// jnode is one value of a parsed JSON document with its byte span, so that
// edits can touch exactly the bytes they mean to. Comments (// and /* */)
// and trailing commas, which JSONC hosts accept, are read as whitespace.
type jnode struct {
	kind    byte // '{' object, '[' array, 0 any other value
	start   int  // offset of the value's first byte
	end     int  // offset just past the value
	members []jmember
	elems   []*jnode
}

// jmember is one member of an object.
type jmember struct {
	key      string
	keyStart int
	val      *jnode
}

// member returns the member named key, or -1.
func (n *jnode) member(key string) int {
	for i, m := range n.members {
		if m.key == key {
			return i
		}
	}
	return -1
}

// empty reports whether an object or array has nothing in it.
func (n *jnode) empty() bool { return len(n.members) == 0 && len(n.elems) == 0 }

// ParseError is a JSON document that cannot be read, with the place.
type ParseError struct {
	Line, Column int
	Msg          string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

type jparser struct {
	b []byte
	i int
}

// parseJSON reads a whole document.
func parseJSON(b []byte) (*jnode, error) {
	p := &jparser{b: b}
	if err := p.skip(); err != nil {
		return nil, err
	}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if err := p.skip(); err != nil {
		return nil, err
	}
	if p.i != len(b) {
		return nil, p.errorf("unexpected %q after the end of the document", b[p.i])
	}
	return n, nil
}

func (p *jparser) errorf(format string, args ...any) error {
	line, col := 1, 1
	for _, c := range p.b[:min(p.i, len(p.b))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &ParseError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// skip passes whitespace and comments.
func (p *jparser) skip() error {
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case c == '/' && p.i+1 < len(p.b) && p.b[p.i+1] == '/':
			for p.i < len(p.b) && p.b[p.i] != '\n' {
				p.i++
			}
		case c == '/' && p.i+1 < len(p.b) && p.b[p.i+1] == '*':
			end := bytes.Index(p.b[p.i+2:], []byte("*/"))
			if end < 0 {
				return p.errorf("unterminated comment")
			}
			p.i += 2 + end + 2
		default:
			return nil
		}
	}
	return nil
}

// maxDepth bounds nesting, so a hostile file cannot exhaust the stack.
const maxDepth = 200

func (p *jparser) value(depth int) (*jnode, error) {
	if depth > maxDepth {
		return nil, p.errorf("nested too deeply")
	}
	if p.i >= len(p.b) {
		return nil, p.errorf("unexpected end of the document")
	}
	switch p.b[p.i] {
	case '{':
		return p.object(depth)
	case '[':
		return p.array(depth)
	case '"':
		start := p.i
		if _, err := p.str(); err != nil {
			return nil, err
		}
		return &jnode{start: start, end: p.i}, nil
	}
	start := p.i
	for p.i < len(p.b) && !bytes.ContainsRune([]byte(",]} \t\r\n/"), rune(p.b[p.i])) {
		p.i++
	}
	if !json.Valid(p.b[start:p.i]) {
		p.i = start
		return nil, p.errorf("invalid value")
	}
	return &jnode{start: start, end: p.i}, nil
}

// str reads a string and returns it decoded.
func (p *jparser) str() (string, error) {
	start := p.i
	p.i++
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case '\\':
			p.i += 2
			continue
		case '"':
			p.i++
			var s string
			if err := json.Unmarshal(p.b[start:p.i], &s); err != nil {
				p.i = start
				return "", p.errorf("invalid string")
			}
			return s, nil
		case '\n':
			return "", p.errorf("newline in a string")
		}
		p.i++
	}
	p.i = start
	return "", p.errorf("unterminated string")
}

func (p *jparser) object(depth int) (*jnode, error) {
	n := &jnode{kind: '{', start: p.i}
	p.i++
	for {
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i < len(p.b) && p.b[p.i] == '}' {
			p.i++
			n.end = p.i
			return n, nil
		}
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, p.errorf("expected a key or }")
		}
		keyStart := p.i
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, p.errorf("expected : after key %q", key)
		}
		p.i++
		if err := p.skip(); err != nil {
			return nil, err
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, jmember{key: key, keyStart: keyStart, val: v})
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i < len(p.b) && p.b[p.i] == ',' {
			p.i++
			continue
		}
		if p.i >= len(p.b) || p.b[p.i] != '}' {
			return nil, p.errorf("expected , or }")
		}
	}
}

func (p *jparser) array(depth int) (*jnode, error) {
	n := &jnode{kind: '[', start: p.i}
	p.i++
	for {
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			n.end = p.i
			return n, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i < len(p.b) && p.b[p.i] == ',' {
			p.i++
			continue
		}
		if p.i >= len(p.b) || p.b[p.i] != ']' {
			return nil, p.errorf("expected , or ]")
		}
	}
}
