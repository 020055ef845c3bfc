package projections

import (
	"encoding/json"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// payloadOf decodes the payload of a successful event of a type whose
// payload a registered model folds (folded); it returns nil for the
// others, and for failed calls, whose payload is a events.FailureData.
func payloadOf(ev *events.Event) (any, error) {
	if ev.Outcome != events.OutcomeOK || !folded()[ev.Type] {
		return nil, nil
	}
	return decodePayload(ev)
}

// decodePayload decodes the payload of ev as the models read it: the refs
// of an attest.refer, the table's payload of any other type.
func decodePayload(ev *events.Event) (any, error) {
	if ev.Type == events.TypeRefer {
		return decodeRefs(ev)
	}
	p, ok := events.NewPayload(ev.Type)
	if !ok || len(ev.Data) == 0 {
		return p, nil
	}
	if err := json.Unmarshal(ev.Data, p); err != nil {
		return nil, fmt.Errorf("decode %s payload of %s: %w", ev.Type, ev.ID, err)
	}
	return p, nil
}

// folder is a model that reads the payloads of events: Folds names the
// types whose payload its Apply reads (a model that reads none need not
// implement it). TestFolds_Declared fails for a model whose rows depend
// on a payload of a type it does not name.
type folder interface {
	Folds() []events.Type
}

// folded returns the types whose payload a model of the registry
// (newState) folds; the others are counted by their envelope alone, and
// decoding their payloads would only cost time.
var folded = sync.OnceValue(func() map[events.Type]bool {
	return engine.Declared(newState().models.Models(), folder.Folds)
})

// refs is what the projector reads of an attest.refer payload: the rule
// and constraint of every ref, in order.
type refs []ruleConstraint

// decodeRefs decodes the payload of an attest.refer event. Refer events
// are most of the ledger, and encoding/json spends most of its time on the
// hashes and reasons that the projector does not read, so a small scanner
// reads the payload first. Where the scanner is not sure to agree with
// json.Unmarshal into events.ReferData (escapes in an id, a key that
// matches a field only case-insensitively, a malformed payload) it gives
// up and json.Unmarshal decides.
func decodeRefs(ev *events.Event) (refs, error) {
	if len(ev.Data) == 0 {
		return nil, nil
	}
	if rs, ok := scanRefs(ev.Data); ok {
		return rs, nil
	}
	var d events.ReferData
	if err := json.Unmarshal(ev.Data, &d); err != nil {
		return nil, fmt.Errorf("decode %s payload of %s: %w", ev.Type, ev.ID, err)
	}
	rs := make(refs, len(d.Refs))
	for i, r := range d.Refs {
		rs[i] = ruleConstraint{r.RuleID, r.ConstraintID}
	}
	return rs, nil
}

// scanRefs reads {"refs":[{"ruleId":..,"constraintId":..,...},...]}. ok is
// false when json.Unmarshal has to decide.
func scanRefs(data []byte) (rs refs, ok bool) {
	s := jsonScanner{b: data}
	seenRefs := false
	ok = s.object(func(key []byte) bool {
		switch {
		case string(key) == "refs" && !seenRefs:
			seenRefs = true
			rs, ok = s.refs()
			return ok
		case foldsTo(key, "refs"):
			return false
		}
		return s.value()
	})
	s.space()
	return rs, ok && s.i == len(s.b)
}

// refs reads the array of refs, or null.
func (s *jsonScanner) refs() (refs, bool) {
	if s.literal("null") {
		return nil, true
	}
	rs := refs{}
	ok := s.array(func() bool {
		var r ruleConstraint
		ok := s.object(func(key []byte) bool {
			switch string(key) {
			case "ruleId":
				return s.plainString(&r.rule)
			case "constraintId":
				return s.plainString(&r.constraint)
			case "ruleHash", "name", "textHash", "reason":
				return s.stringOrNull()
			}
			for _, f := range [...]string{"ruleId", "constraintId", "ruleHash", "name", "textHash", "reason"} {
				if foldsTo(key, f) {
					return false
				}
			}
			return s.value()
		})
		rs = append(rs, r)
		return ok
	})
	return rs, ok
}

// foldsTo reports whether key may match field the way encoding/json
// matches object keys to field names, ignoring case. Unicode folding makes
// some non-ASCII letters match ASCII ones ("ſ" matches "s"), so any
// non-ASCII key may match.
func foldsTo(key []byte, field string) bool {
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return true
		}
	}
	if len(key) != len(field) {
		return false
	}
	for i, c := range key {
		if c|0x20 != field[i]|0x20 {
			return false
		}
	}
	return true
}

// jsonScanner checks and walks JSON text. Its methods return false on
// anything it does not accept, leaving the decision to encoding/json.
type jsonScanner struct {
	b     []byte
	i     int
	depth int // nesting of the value being read
}

// maxDepth bounds the nesting the scanner follows; deeper payloads are left
// to encoding/json, which has its own limit.
const maxDepth = 64

func (s *jsonScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// next skips white space and consumes c if it comes next.
func (s *jsonScanner) next(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *jsonScanner) peek() byte {
	s.space()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *jsonScanner) literal(word string) bool {
	s.space()
	if len(s.b)-s.i >= len(word) && string(s.b[s.i:s.i+len(word)]) == word {
		s.i += len(word)
		return true
	}
	return false
}

// object reads an object, calling member after each key and its colon;
// member must read the value.
func (s *jsonScanner) object(member func(key []byte) bool) bool {
	if !s.next('{') || !s.enter() {
		return false
	}
	defer s.leave()
	if s.next('}') {
		return true
	}
	for {
		key, escaped, ok := s.rawString()
		if !ok || escaped || !s.next(':') || !member(key) {
			return false
		}
		if s.next('}') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

// array reads an array, calling elem for each element.
func (s *jsonScanner) array(elem func() bool) bool {
	if !s.next('[') || !s.enter() {
		return false
	}
	defer s.leave()
	if s.next(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if s.next(']') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

func (s *jsonScanner) enter() bool { s.depth++; return s.depth <= maxDepth }
func (s *jsonScanner) leave()      { s.depth-- }

// rawString reads a string and returns its bytes between the quotes;
// escaped reports whether they hold an escape sequence.
func (s *jsonScanner) rawString() (raw []byte, escaped, ok bool) {
	if !s.next('"') {
		return nil, false, false
	}
	start := s.i
	for {
		for s.i < len(s.b) && !stringStop[s.b[s.i]] {
			s.i++
		}
		if s.i == len(s.b) {
			return nil, false, false
		}
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], escaped, true
		case c == '\\':
			escaped = true
			if !s.escape() {
				return nil, false, false
			}
		default: // a control character
			return nil, false, false
		}
	}
}

// stringStop marks the bytes that end a run of plain string content: the
// quote, the backslash and the control characters, which JSON forbids.
var stringStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// escape reads one escape sequence.
func (s *jsonScanner) escape() bool {
	if s.i+1 >= len(s.b) {
		return false
	}
	switch s.b[s.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i += 2
		return true
	case 'u':
		if s.i+6 > len(s.b) {
			return false
		}
		for _, c := range s.b[s.i+2 : s.i+6] {
			if !isHexDigit(c) {
				return false
			}
		}
		s.i += 6
		return true
	}
	return false
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// plainString reads a string into dst, or null, which leaves dst as it is
// (as encoding/json does). A string with escapes or invalid UTF-8, which
// encoding/json would rewrite, gives up.
func (s *jsonScanner) plainString(dst *string) bool {
	if s.literal("null") {
		return true
	}
	raw, escaped, ok := s.rawString()
	if !ok || escaped || !utf8.Valid(raw) {
		return false
	}
	*dst = string(raw)
	return true
}

func (s *jsonScanner) stringOrNull() bool {
	if s.literal("null") {
		return true
	}
	_, _, ok := s.rawString()
	return ok
}

// value reads any value.
func (s *jsonScanner) value() bool {
	switch c := s.peek(); {
	case c == '{':
		return s.object(func([]byte) bool { return s.value() })
	case c == '[':
		return s.array(s.value)
	case c == '"':
		_, _, ok := s.rawString()
		return ok
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	}
	return s.literal("true") || s.literal("false") || s.literal("null")
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (s *jsonScanner) number() bool {
	b, i := s.b, s.i
	digits := func() bool {
		start := i
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		return i > start
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	s.i = i
	return true
}
