package mcp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// fuzzSeeds are whole stdio streams: sessions as hosts send them, and the
// same with lines broken, reordered or mangled.
var fuzzSeeds = []string{
	`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memsetup","arguments":{"session_id":"s-1"}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memdisc","arguments":{}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memref","arguments":{"refs":[{"ruleId":"p-00","constraintId":"x"}]}}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"artifact","arguments":{"resource":"rule","op":{"create":{"path":"go/A","body":"# A\n"}}}}}
`,
	"{not json\n[1,2]\n[]\n{}\nnull\n\"x\"\n{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}\n",
	`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}
{"jsonrpc":"1.0","id":7,"method":"ping"}
{"jsonrpc":"2.0","id":null,"method":"ping"}
{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}
{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"memsetup","arguments":{"session_id":"early"}}}
`,
	`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}
{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":5}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memload","arguments":{"ids":"x"}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":null}
{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}
{"jsonrpc":"2.0","id":9,"result":{}}
{"jsonrpc":"2.0","id":9,"error":{"code":1,"message":"x"}}
`,
	"\r\n\n   \n{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"ping\"}\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"method\":\"tools/list\"}",
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n\xff\xfe\n",
	// Lines refused whole, answered with the id read from their start,
	// and ids that cannot be echoed.
	`{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"a":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}}
{"jsonrpc":"2.0","method":"ping","params":{"id":1,"a":` + strings.Repeat(`[{"id":2},`, 80) + "0" + strings.Repeat("]", 80) + `},"id":"last"}
{"jsonrpc":"2.0","method":"tools/list","id":"\u00e9"}
` + "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":\"a\xc3\",\"method\":\"ping\",\"params\":{\"a\":" + strings.Repeat("[", 70) + strings.Repeat("]", 70) + "}}\n",
}

const sentinel = `{"jsonrpc":"2.0","id":"sentinel-ping","method":"ping"}`

// FuzzStdio feeds whole streams to a stdio session over real parts. However
// mangled the stream, the session answers every line it must answer (every
// call with a valid id, with that id as sent, a line nested too deep too;
// a parse error for every line that is not JSON) with well-formed JSON-RPC
// 2.0 on a line of valid UTF-8, and it survives: a ping sent after the
// stream is answered.
func FuzzStdio(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		if bytes.Contains(stream, []byte("sentinel-ping")) {
			t.Skip()
		}
		e := newEnv(t, envOptions{})
		s := newStdio(t, e)
		want := expectAnswers(stream)
		s.send(string(stream) + "\n" + sentinel)
		got := map[string]int{}
		parseErrors := 0
		deadline := time.After(2 * time.Minute)
		for !want.metBy(got, parseErrors) {
			var line string
			select {
			case l, ok := <-s.lines:
				if !ok {
					t.Fatalf("the server closed stdout; answers so far %v", got)
				}
				line = l
			case <-deadline:
				t.Fatalf("not every line answered: got ids %v and %d parse errors, want ids %v and %d parse errors", got, parseErrors, want.ids, want.parseErrors)
			}
			a := checkAnswer(t, line)
			if a.Error != nil && a.Error.Code == -32700 {
				parseErrors++
			}
			got[string(a.ID)]++
		}
	})
}

// expected is what a stream must get answered.
type expected struct {
	ids         map[string]int // raw id -> calls with it
	parseErrors int
}

func (w expected) metBy(got map[string]int, parseErrors int) bool {
	if parseErrors < w.parseErrors {
		return false
	}
	for id, n := range w.ids {
		if got[id] < n {
			return false
		}
	}
	return true
}

// expectAnswers reads a stream as a host's lines: a line that is not JSON
// needs a parse error, a well-formed call with a number id or a string id
// of valid UTF-8 an answer with that id (a call nested too deep as well,
// when the id stands in the part of the line read for it); the sentinel
// ping is one of them. Calls named by a cancellation may go unanswered, so
// they are not counted.
func expectAnswers(stream []byte) expected {
	w := expected{ids: map[string]int{`"sentinel-ping"`: 1}}
	cancelled := map[string]bool{}
	for line := range bytes.SplitSeq(stream, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if !json.Valid(line) {
			w.parseErrors++
			continue
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(line, &m) != nil {
			continue
		}
		if string(m["method"]) == `"notifications/cancelled"` {
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			_ = json.Unmarshal(m["params"], &p)
			cancelled[string(p.RequestID)] = true
		}
		var method string
		id, hasID := m["id"]
		if !hasID || json.Unmarshal(m["method"], &method) != nil || string(m["jsonrpc"]) != `"2.0"` {
			continue
		}
		if depth(line) > MaxDepth && len(line) > idScanMax {
			continue
		}
		if c := first(id); (c == '"' && utf8.Valid(id)) || c == '-' || (c >= '0' && c <= '9') {
			w.ids[string(id)]++
		}
	}
	for id := range cancelled {
		delete(w.ids, id)
	}
	return w
}

// checkAnswer fails t unless line is one well-formed JSON-RPC 2.0 response.
func checkAnswer(t *testing.T, line string) rpcAnswer {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &m); err != nil || !utf8.ValidString(line) {
		t.Fatalf("the server wrote %q: not a JSON object of valid UTF-8 (%v)", line, err)
	}
	_, hasResult := m["result"]
	_, hasError := m["error"]
	_, hasID := m["id"]
	if string(m["jsonrpc"]) != `"2.0"` || !hasID || hasResult == hasError {
		t.Fatalf("the server wrote %q: not a JSON-RPC 2.0 response", line)
	}
	var a rpcAnswer
	if err := json.Unmarshal([]byte(line), &a); err != nil {
		t.Fatalf("the server wrote %q: %v", line, err)
	}
	if a.Error != nil && (a.Error.Code == 0 || strings.TrimSpace(a.Error.Message) == "") {
		t.Fatalf("the server wrote %q: an error needs a code and a message", line)
	}
	return a
}
