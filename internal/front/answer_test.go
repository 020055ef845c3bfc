package front

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var srv = Server{Version: "v1.2.3", Instructions: "# Frame\n\n<use> & \"quote\" é\n"}

const initParams = `{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"c","version":"1"}}`

const discoverParams = `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}`

func request(id, method, params string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`
}

// Each case is named after the rule it checks (Answer's doc comment).
func TestAnswer_Rules(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       bool
	}{
		{"initialize in a version the SDK echoes", request("1", "initialize", initParams), true},
		{"every echoed version", request("1", "initialize", strings.Replace(initParams, "2025-06-18", "2024-11-05", 1)), true},
		{"a string id", request(`"a-1"`, "initialize", initParams), true},
		{"a negative number id", request("-7", "initialize", initParams), true},
		{"server/discover of 2026-07-28", request("1", "server/discover", discoverParams), true},
		{"server/discover without clientInfo", request("1", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}}}`), true},

		{"initialize in 2026-07-28 is negotiated by the core", request("1", "initialize", strings.Replace(initParams, "2025-06-18", "2026-07-28", 1)), false},
		{"an unknown version is negotiated by the core", request("1", "initialize", strings.Replace(initParams, "2025-06-18", "1999-01-01", 1)), false},
		{"a version that is not a string", request("1", "initialize", strings.Replace(initParams, `"2025-06-18"`, "20250618", 1)), false},
		{"no clientInfo", request("1", "initialize", `{"protocolVersion":"2025-06-18","capabilities":{}}`), false},
		{"clientInfo without version", request("1", "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c"}}`), false},
		{"no capabilities", request("1", "initialize", `{"protocolVersion":"2025-06-18","clientInfo":{"name":"c","version":"1"}}`), false},
		{"a capability that is not an object", request("1", "initialize", strings.Replace(initParams, `{"listChanged":true}`, `true`, 1)), false},
		{"params not an object", request("1", "initialize", `[]`), false},
		{"no params", `{"jsonrpc":"2.0","id":1,"method":"initialize"}`, false},
		{"a null id", request("null", "initialize", initParams), false},
		{"an object id", request(`{"a":1}`, "initialize", initParams), false},
		{"a string id that is not UTF-8", request("\"\xff\"", "initialize", initParams), false},
		{"no id (a notification)", `{"jsonrpc":"2.0","method":"initialize","params":` + initParams + `}`, false},
		{"jsonrpc not 2.0", strings.Replace(request("1", "initialize", initParams), `"2.0"`, `"1.0"`, 1), false},
		{"jsonrpc 2.0 spelled with an escape", strings.Replace(request("1", "initialize", initParams), `"2.0"`, `"2\u002e0"`, 1), false},
		{"another method", request("1", "tools/list", `{}`), false},
		{"ping", request("1", "ping", `{}`), false},
		{"server/discover of another version", request("1", "server/discover", strings.Replace(discoverParams, "2026-07-28", "2025-11-25", 1)), false},
		{"server/discover without clientCapabilities", request("1", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`), false},
		{"server/discover with a capability that is not an object", request("1", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":true}}}`), false},
		{"server/discover with clientInfo not an object", request("1", "server/discover", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":"c","io.modelcontextprotocol/clientCapabilities":{}}}`), false},
		{"a batch", "[" + request("1", "initialize", initParams) + "]", false},
		{"not JSON", `{"jsonrpc":"2.0",`, false},
		{"nested deeper than the core allows", request("1", "initialize", strings.Replace(initParams, `{"listChanged":true}`, strings.Repeat(`{"a":`, 70)+"1"+strings.Repeat("}", 70), 1)), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answer, ok := Answer([]byte(tc.line), srv)
			if ok != tc.want {
				t.Fatalf("answered %v, want %v (%s)", ok, tc.want, answer)
			}
			if ok {
				checkAnswer(t, tc.line, answer)
			}
		})
	}
}

// checkAnswer checks what every answer must be: one line of JSON-RPC 2.0
// with the request's id as sent and a result naming the server.
func checkAnswer(t *testing.T, line string, answer []byte) {
	t.Helper()
	if strings.ContainsAny(string(answer), "\n\r") {
		t.Fatalf("the answer is not one line: %q", answer)
	}
	var req, res map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &req); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(answer, &res); err != nil {
		t.Fatalf("answer is not JSON: %v: %s", err, answer)
	}
	if string(res["id"]) != string(req["id"]) || string(res["jsonrpc"]) != `"2.0"` {
		t.Fatalf("id %s jsonrpc %s, want %s 2.0", res["id"], res["jsonrpc"], req["id"])
	}
	var result struct {
		Instructions    string `json:"instructions"`
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      *struct{ Name, Version string }
		Meta            map[string]struct{ Name, Version string } `json:"_meta"`
	}
	if err := json.Unmarshal(res["result"], &result); err != nil {
		t.Fatal(err)
	}
	if result.Instructions != srv.Instructions {
		t.Fatalf("instructions %q", result.Instructions)
	}
	info := result.ServerInfo
	if info == nil {
		i := result.Meta[metaServerInfo]
		info = &struct{ Name, Version string }{i.Name, i.Version}
	}
	if info.Name != "clumsies" || info.Version != srv.Version {
		t.Fatalf("server info %+v", info)
	}
}

// The versions the front answers in are the SDK's: all it supports for
// server/discover, and for initialize those it echoes (older than
// 2026-07-28). A new SDK release that changes them fails here.
func TestVersions_AreTheSDKs(t *testing.T) {
	sdk := mcp.SupportedProtocolVersions()
	if !slices.Equal(Supported, sdk) {
		t.Fatalf("Supported = %v, the SDK's = %v", Supported, sdk)
	}
	var echoed []string
	for _, v := range sdk {
		if v < DiscoverVersion {
			echoed = append(echoed, v)
		}
	}
	if !slices.Equal(Versions, echoed) {
		t.Fatalf("Versions = %v, the SDK echoes %v", Versions, echoed)
	}
}

func FuzzAnswer(f *testing.F) {
	f.Add(request("1", "initialize", initParams))
	f.Add(request(`"x"`, "server/discover", discoverParams))
	f.Add(`{"jsonrpc":"2.0","id":1e400,"method":"initialize","params":{}}`)
	f.Fuzz(func(t *testing.T, line string) {
		answer, ok := Answer([]byte(line), srv)
		if ok {
			checkAnswer(t, line, answer)
		}
	})
}
