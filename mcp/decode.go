package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/events"
)

// The SDK's own input validation answers with text only, so the tools are
// registered with the low-level Server.AddTool and decode their arguments
// here, strictly and in step with their schemas: an unknown property, a
// missing or empty required field, a wrong type, a bad session id or an
// oversized body is an invalid_params ToolError naming the field.

// MaxBody is the largest draft body, in bytes, that artifact accepts.
const MaxBody = 256 << 10

// maxText bounds the free text fields (summary, reason, description), in
// bytes, so that an event always fits the ledger.
const maxText = 64 << 10

// fields is a decoded JSON object: its members by name, still raw. Every
// member is valid JSON (decodeObject accepts nothing else).
type fields struct {
	path string // JSON path of the object, "" for the arguments themselves
	m    map[string]json.RawMessage
}

// at returns the JSON path of a member of f.
func (f *fields) at(name string) string {
	if f.path == "" {
		return name
	}
	return f.path + "." + name
}

// decodeObject reads raw as a JSON object with no member outside allowed
// and no member given twice. Absent arguments (nil) read as {}.
func decodeObject(raw json.RawMessage, path string, allowed ...string) (*fields, error) {
	if len(bytes.TrimSpace(raw)) == 0 && path == "" {
		raw = json.RawMessage(`{}`)
	}
	if !json.Valid(raw) {
		// Only a caller's own bytes can be invalid (the SDK hands on
		// arguments it has parsed); tell them where it breaks.
		return decodeObjectTokens(raw, path, allowed...)
	}
	what := describe(path)
	if first(raw) != '{' {
		return nil, invalidParams(path, "%s must be a JSON object", what)
	}
	f := &fields{path: path, m: make(map[string]json.RawMessage, len(allowed))}
	err := eachMember(raw, func(name string, v json.RawMessage) error {
		if path == "" && sessionMember(name) && !slices.Contains(allowed, name) {
			return nil // every tool's optional session_id and session_secret (sessionarg.go)
		}
		if !slices.Contains(allowed, name) {
			return invalidParams(f.at(name), "unknown property %q in %s; the allowed properties are: %s",
				name, what, strings.Join(allowed, ", "))
		}
		if _, dup := f.m[name]; dup {
			return invalidParams(f.at(name), "property %q is given twice in %s", name, what)
		}
		f.m[name] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// describe names the object at path in messages.
func describe(path string) string {
	if path == "" {
		return "the arguments"
	}
	return path
}

// decodeObjectTokens is decodeObject for bytes that are not valid JSON:
// it reads token by token, so that what it says matches where the bytes
// stop making sense.
func decodeObjectTokens(raw json.RawMessage, path string, allowed ...string) (*fields, error) {
	what := describe(path)
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, invalidParams(path, "%s must be a JSON object", what)
	}
	f := &fields{path: path, m: map[string]json.RawMessage{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, invalidParams(path, "%s is not valid JSON", what)
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, invalidParams(path, "%s is not valid JSON", what)
		}
		if path == "" && sessionMember(name) && !slices.Contains(allowed, name) {
			continue
		}
		if !slices.Contains(allowed, name) {
			return nil, invalidParams(f.at(name), "unknown property %q in %s; the allowed properties are: %s",
				name, what, strings.Join(allowed, ", "))
		}
		if _, dup := f.m[name]; dup {
			return nil, invalidParams(f.at(name), "property %q is given twice in %s", name, what)
		}
		f.m[name] = v
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, invalidParams(path, "%s is not valid JSON", what)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, invalidParams(path, "%s must be one JSON object", what)
	}
	return f, nil
}

// has reports whether the member is present.
func (f *fields) has(name string) bool { _, ok := f.m[name]; return ok }

// str reads a string member. A required member must be present; a present
// member must be a string (null is not). nonEmpty also rejects a value that
// is empty after trimming white space. max bounds the length in bytes (0:
// no bound).
func (f *fields) str(name string, required, nonEmpty bool, max int) (string, error) {
	raw, ok := f.m[name]
	if !ok {
		if required {
			return "", invalidParams(f.at(name), "missing required property %q", f.at(name))
		}
		return "", nil
	}
	s, err := unquoteValue(raw)
	if err != nil {
		return "", invalidParams(f.at(name), "%s must be a string, got %s", f.at(name), jsonType(raw))
	}
	if nonEmpty && strings.TrimSpace(s) == "" {
		return "", invalidParams(f.at(name), "%s must not be empty", f.at(name))
	}
	if max > 0 && len(s) > max {
		return "", invalidParams(f.at(name), "%s is %d bytes long; the limit is %d bytes (%d KiB)", f.at(name), len(s), max, max>>10)
	}
	return s, nil
}

// limit reads an optional whole number from 1 to max; def when absent.
func (f *fields) limit(name string, def, max int) (int, error) {
	raw, ok := f.m[name]
	if !ok {
		return def, nil
	}
	var n float64
	if json.Unmarshal(raw, &n) != nil || n != float64(int(n)) || n < 1 || n > float64(max) {
		return 0, invalidParams(f.at(name), "%s must be a whole number from 1 to %d, got %s", f.at(name), max, raw)
	}
	return int(n), nil
}

// object reads a required member that is itself an object.
func (f *fields) object(name string, allowed ...string) (*fields, error) {
	raw, ok := f.m[name]
	if !ok {
		return nil, invalidParams(f.at(name), "missing required property %q", f.at(name))
	}
	if !isJSONObject(raw) {
		return nil, invalidParams(f.at(name), "%s must be an object, got %s", f.at(name), jsonType(raw))
	}
	return decodeObject(raw, f.at(name), allowed...)
}

// stringMap reads a required member that is an object of strings.
func (f *fields) stringMap(name string) (map[string]string, error) {
	raw, ok := f.m[name]
	if !ok {
		return nil, invalidParams(f.at(name), "missing required property %q", f.at(name))
	}
	if !isJSONObject(raw) {
		return nil, invalidParams(f.at(name), "%s must be an object mapping ids to hashes, got %s", f.at(name), jsonType(raw))
	}
	out := map[string]string{}
	err := eachMember(raw, func(k string, v json.RawMessage) error {
		s, err := unquoteValue(v)
		if err != nil {
			return invalidParams(fmt.Sprintf("%s[%q]", f.at(name), k),
				"%s[%q] must be a string (a hash, or \"\" when you do not know it), got %s", f.at(name), k, jsonType(v))
		}
		out[k] = s // a key given twice: the last value, as json.Unmarshal does
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// array reads a required member that is a non-empty array and returns its
// elements, still raw.
func (f *fields) array(name string) ([]json.RawMessage, error) {
	raw, ok := f.m[name]
	if !ok {
		return nil, invalidParams(f.at(name), "missing required property %q", f.at(name))
	}
	if !isJSONArray(raw) {
		return nil, invalidParams(f.at(name), "%s must be an array, got %s", f.at(name), jsonType(raw))
	}
	var items []json.RawMessage
	eachElement(raw, func(v json.RawMessage) { items = append(items, v) })
	if len(items) == 0 {
		return nil, invalidParams(f.at(name), "%s must hold at least one element", f.at(name))
	}
	if len(items) > MaxItems {
		return nil, invalidParams(f.at(name), "%s holds %d elements; the limit is %d: split the call", f.at(name), len(items), MaxItems)
	}
	return items, nil
}

// sessionID reads and checks the session_id member.
func (f *fields) sessionID() (string, error) {
	id, err := f.str("session_id", true, false, 0)
	if err != nil {
		return "", err
	}
	if !events.ValidSessionID(id) {
		return "", invalidParams(f.at("session_id"),
			"session_id must be the real host session or thread id: "+events.SessionIDRule)
	}
	return id, nil
}

func firstByte(raw json.RawMessage) byte {
	b := bytes.TrimLeft(raw, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

func isJSONString(raw json.RawMessage) bool { return firstByte(raw) == '"' }
func isJSONObject(raw json.RawMessage) bool { return firstByte(raw) == '{' }
func isJSONArray(raw json.RawMessage) bool  { return firstByte(raw) == '[' }

// jsonType names the JSON type of raw for error messages.
func jsonType(raw json.RawMessage) string {
	switch firstByte(raw) {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
