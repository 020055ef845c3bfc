package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"testing"
)

// decodeObjectByTokens is how the arguments were read before decodeObject
// walked them in one pass: json.Decoder, token by token. decodeObject must
// answer exactly as it does, members and messages alike.
func decodeObjectByTokens(raw json.RawMessage, path string, allowed ...string) (*fields, error) {
	if len(bytes.TrimSpace(raw)) == 0 && path == "" {
		raw = json.RawMessage(`{}`)
	}
	// decodeObjectTokens is that reader, kept for bytes that are not JSON.
	return decodeObjectTokens(raw, path, allowed...)
}

// sameDecoding fails t when decodeObject and decodeObjectByTokens disagree
// on raw.
func sameDecoding(t *testing.T, raw []byte, path string) {
	t.Helper()
	allowed := []string{"ids", "knownHashes", "a", "é", "a\"b", ""}
	got, gerr := decodeObject(raw, path, allowed...)
	want, werr := decodeObjectByTokens(raw, path, allowed...)
	switch {
	case (gerr == nil) != (werr == nil):
		t.Fatalf("decodeObject(%q): error %v, by tokens %v", raw, gerr, werr)
	case gerr != nil:
		var g, w *ToolError
		if !errors.As(gerr, &g) || !errors.As(werr, &w) {
			t.Fatalf("decodeObject(%q): errors %v and %v, want ToolErrors", raw, gerr, werr)
		}
		if g.Message != w.Message || g.Extra["field"] != w.Extra["field"] {
			t.Fatalf("decodeObject(%q):\n got  %q (field %v)\n want %q (field %v)", raw, g.Message, g.Extra["field"], w.Message, w.Extra["field"])
		}
	case !maps.EqualFunc(got.m, want.m, sameRaw):
		t.Fatalf("decodeObject(%q): members %q, by tokens %q", raw, got.m, want.m)
	default:
		for _, v := range got.m {
			sameValues(t, v)
		}
	}
}

func sameRaw(a, b json.RawMessage) bool { return bytes.Equal(a, b) }

// sameValues fails t when the one-pass readers of a member's value
// disagree with json.Unmarshal.
func sameValues(t *testing.T, v json.RawMessage) {
	t.Helper()
	var want string
	werr := json.Unmarshal(v, &want)
	if !isJSONString(v) { // json.Unmarshal takes null for a string
		werr = errors.New("not a string")
	}
	got, gerr := unquoteValue(v)
	if (gerr == nil) != (werr == nil) || got != want {
		t.Fatalf("unquoteValue(%q) = %q, %v; json.Unmarshal: %q, %v", v, got, gerr, want, werr)
	}
	var items []json.RawMessage
	if json.Unmarshal(v, &items) == nil {
		var walked []json.RawMessage
		eachElement(v, func(e json.RawMessage) { walked = append(walked, e) })
		if !slices.EqualFunc(walked, items, sameRaw) {
			t.Fatalf("eachElement(%q) = %q; json.Unmarshal: %q", v, walked, items)
		}
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(v, &members) == nil && members != nil {
		walked := map[string]json.RawMessage{}
		if err := eachMember(v, func(k string, e json.RawMessage) error { walked[k] = e; return nil }); err != nil {
			t.Fatalf("eachMember(%q): %v", v, err)
		}
		if !maps.EqualFunc(walked, members, sameRaw) {
			t.Fatalf("eachMember(%q) = %q; json.Unmarshal: %q", v, walked, members)
		}
	}
}

var memberSeeds = []string{
	``, `  `, `{}`, ` { } `, `[]`, `null`, `1`, `"x"`, `{`, `}`, `{"a"}`, `{"a":}`, `{"a":1,}`,
	`{"a":1}`, `{"a": 1 , "ids" : [1, "]", {"x":"}"}] }`, `{"a":1}{}`, `{"a":1} x`, `{"a":1} `,
	`{"knownHashes":{"x":"y"},"ids":["a"]}`, `{"ids":[ "a" , "b\"]" ,1,{"c":[2]} ] ,"knownHashes":{"x":"\u00e9","x":"z","y":1}}`, `{"zzz":1}`, `{"a":1,"a":2}`, `{"\u00e9":true}`,
	`{"a\"b":null}`, `{"":false}`, `{"a":"\\"}`, `{"a":-1.5e3}`, `{"a":tru}`, "{\"a\":\"\xff\"}",
	"{\"\xff\":1}", `{"ids":[[[[]]]],"a":{"b":{"c":[]}}}`, "{\t\"a\"\r\n:\n1\n}",
}

func TestDecodeObject_SameAsByTokens(t *testing.T) {
	for _, s := range memberSeeds {
		for _, path := range []string{"", "refs[0]"} {
			sameDecoding(t, []byte(s), path)
		}
	}
}

func FuzzDecodeObject(f *testing.F) {
	for _, s := range memberSeeds {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, raw []byte, nested bool) {
		path := ""
		if nested {
			path = "refs[0]"
		}
		sameDecoding(t, raw, path)
	})
}
