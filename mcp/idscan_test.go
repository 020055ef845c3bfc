package mcp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestScanID(t *testing.T) {
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	for _, tc := range []struct {
		name, line, want string // want "" means none (null)
	}{
		{"First", `{"id":7,"method":"ping"}`, "7"},
		{"Last", `{"method":"ping","params":{},"id":"x"}`, `"x"`},
		{"Spaces", " { \"id\" :\t-1.5e3 , \"m\":1}", "-1.5e3"},
		{"EscapedName", `{"\u0069d":"e"}`, `"e"`},
		{"Twice", `{"id":1,"id":2}`, "2"},
		{"TwiceLastNull", `{"id":1,"id":null}`, ""},
		{"Nested", `{"params":{"id":1,"a":["id",{"id":2}]},"id":3}`, "3"},
		{"NestedOnly", `{"params":{"id":1}}`, ""},
		{"BracesInStrings", `{"a":"}]\"{[","b":["]}\\"],"id":"}"}`, `"}"`},
		{"DeepFirst", `{"a":` + deep + `,"id":4}`, ""}, // past the prefix
		{"DeepInPrefix", `{"a":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `,"id":4}`, "4"},
		{"Null", `{"id":null}`, ""},
		{"Bool", `{"id":true}`, ""},
		{"Object", `{"id":{"id":1}}`, ""},
		{"BadNumber", `{"id":01}`, ""},
		{"NotUTF8", "{\"id\":\"\xff\"}", ""},
		{"Escapes", `{"id":"\u00e9\ud83d\ude00\n"}`, `"\u00e9\ud83d\ude00\n"`},
		{"CutInTheID", `{"id":"abc`, ""},
		{"CutInANumber", `{"id":123`, ""},
		{"CutAfterTheID", `{"id":123,"params":{"a":"xx`, "123"},
		{"CutAfterANumber", `{"id":123 `, "123"},
		{"BrokenAfterTheID", `{"id":"ok",]]]`, `"ok"`},
		{"BrokenBeforeTheID", `{"a":1 "id":2}`, ""},
		{"NotAnObject", `["id",1]`, ""},
		{"AResponse", `{"jsonrpc":"2.0","id":3,"result":{"roots":[]}}`, ""},
		{"AnErrorResponse", `{"error":{"code":1,"message":"x"},"id":3}`, ""},
		{"AResponseCutBeforeItsResult", `{"jsonrpc":"2.0","id":3,"resu`, "3"},
		{"ARequestWithAResult", `{"jsonrpc":"2.0","id":3,"result":1,"method":"ping"}`, "3"},
		{"Empty", ``, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(scanID([]byte(tc.line))); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzScanID checks scanID against encoding/json. What it returns is
// always an id an answer can carry (a number, or a string of valid
// UTF-8); for a whole object within the scanned prefix it is the object's
// top-level id when that is such an id and the object is no response (it
// has a method, or neither a result nor an error), and
// for a prefix of a request it is that id or none (or an earlier id of an
// object naming two).
func FuzzScanID(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"params":{"id":1,"a":["id",{"id":2}]},"id":"x"}`,
		`{"\u0069d":"e","id":null}`,
		"{\"id\":\"\xff\"}",
		`{"a":"}]\"{[","id":-0.5e-3}`,
		`{"id":1,"id":2}`,
		`{"id":123 `,
	} {
		f.Add([]byte(s), uint16(len(s)/2))
	}
	f.Fuzz(func(t *testing.T, line []byte, cut uint16) {
		check := func(got json.RawMessage) {
			if got != nil && (!json.Valid(got) || !utf8.Valid(got) || !scalarID(got)) {
				t.Fatalf("scanID(%q) = %q: not an id an answer can carry", line, got)
			}
		}
		got := scanID(line)
		check(got)
		var m map[string]json.RawMessage
		if !json.Valid(line) || len(line) > idScanMax || json.Unmarshal(line, &m) != nil || m == nil {
			return
		}
		var want json.RawMessage
		_, result := m["result"]
		_, isError := m["error"]
		_, method := m["method"]
		if id := m["id"]; scalarID(id) && (method || !result && !isError) {
			want = id
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("scanID(%q) = %q, want %q", line, got, want)
		}
		part := scanID(line[:int(cut)%(len(line)+1)])
		check(part)
		if part != nil && !bytes.Equal(part, want) && !result && !isError {
			ids := 0
			_ = eachMember(line, func(name string, _ json.RawMessage) error {
				if name == "id" {
					ids++
				}
				return nil
			})
			if ids < 2 {
				t.Fatalf("scanID of a prefix of %q = %q, want %q or none", line, part, want)
			}
		}
	})
}
