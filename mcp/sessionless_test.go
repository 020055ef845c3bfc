package mcp

import (
	"encoding/json"
	"testing"
)

// sessionlessByDecoding is what sessionless answered before it read params
// in place: params decoded into a struct with a map _meta.
func sessionlessByDecoding(params json.RawMessage) bool {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	_, ok := p.Meta[metaProtocolVersion]
	return ok
}

var sessionlessSeeds = []string{
	``, `null`, `[]`, `"x"`, `{}`, `{"_meta":null}`, `{"_meta":{}}`, `{"_meta":[]}`, `{"_meta":"x"}`,
	`{"name":"memload","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}},"arguments":{"ids":["p-1"]}}`,
	`{"_META":{"io.modelcontextprotocol/protocolVersion":"x"}}`,
	`{"_Meta":{"io.modelcontextprotocol\/protocolVersion":1}}`,
	`{"\u005fmeta":{"io.modelcontextprotocol/protocolVersion":null}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"x"},"_meta":null}`,
	`{"_meta":null,"_meta":{"io.modelcontextprotocol/protocolVersion":"x"}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"x"},"_meta":{}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"x"},"_meta":5}`,
	`{"_meta":{"a":{"io.modelcontextprotocol/protocolVersion":1}}}`,
	`{"arguments":{"_meta":{"io.modelcontextprotocol/protocolVersion":"x"}}}`,
	` { "_meta" : { "io.modelcontextprotocol/protocolVersion" : "x" } } `,
	`{"_meta":{"io.modelcontextprotocol/protocolversion":"x"}}`,
}

func TestSessionless_AsDecoding(t *testing.T) {
	want := map[string]bool{
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"x"},"_meta":null}`: false,
		`{"_meta":null,"_meta":{"io.modelcontextprotocol/protocolVersion":"x"}}`: true,
		`{"_META":{"io.modelcontextprotocol/protocolVersion":"x"}}`:              true,
	}
	for _, p := range sessionlessSeeds {
		got := sessionless(json.RawMessage(p))
		if ref := sessionlessByDecoding(json.RawMessage(p)); got != ref {
			t.Errorf("sessionless(%s) = %v, json.Unmarshal says %v", p, got, ref)
		}
		if w, ok := want[p]; ok && got != w {
			t.Errorf("sessionless(%s) = %v, want %v", p, got, w)
		}
	}
}

func TestSessionless_NoGarbage(t *testing.T) {
	p := json.RawMessage(sessionlessSeeds[9])
	if !sessionless(p) {
		t.Fatal("a sessionless call's params not seen as such")
	}
	if n := testing.AllocsPerRun(100, func() { sessionless(p) }); n != 0 {
		t.Fatalf("sessionless allocates %.0f times per call, want 0: it is asked of every call", n)
	}
}

func FuzzSessionless(f *testing.F) {
	for _, s := range sessionlessSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if p != "" && !json.Valid([]byte(p)) {
			return // callers pass valid JSON or nothing
		}
		if got, want := sessionless(json.RawMessage(p)), sessionlessByDecoding(json.RawMessage(p)); got != want {
			t.Fatalf("sessionless(%s) = %v, json.Unmarshal says %v", p, got, want)
		}
	})
}
