package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestServe_BadLines drives the built binary over real stdio with lines
// that used to end the process: each gets its JSON-RPC error, with the id
// as sent when there is one, and the session goes on to a tool call and a
// clean exit.
func TestServe_BadLines(t *testing.T) {
	dir := newWorkspace(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "serve", "--workspace", dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewScanner(stdout)
	out.Buffer(nil, 16<<20)
	exchange := func(line string) map[string]json.RawMessage {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatalf("write %.60q: %v (stderr: %s)", line, err, stderr.String())
		}
		if !out.Scan() {
			t.Fatalf("no answer to %.60q: stdout ended (%v); stderr: %s", line, out.Err(), stderr.String())
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(out.Bytes(), &m); err != nil || !utf8.Valid(out.Bytes()) {
			t.Fatalf("answer %q: not JSON of valid UTF-8 (%v)", out.Text(), err)
		}
		return m
	}
	errorCode := func(m map[string]json.RawMessage) string {
		var e struct {
			Code json.RawMessage `json:"code"`
		}
		_ = json.Unmarshal(m["error"], &e)
		return string(e.Code)
	}
	for _, tc := range []struct{ line, id, code string }{
		{`{not json`, "null", "-32700"},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "null", "-32600"},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, "null", "-32600"},
		{`{"jsonrpc":"1.0","id":3,"method":"ping"}`, "3", "-32600"},
		{`{"jsonrpc":"2.0","id":4,"method":"ping","params":{"a":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}`, "4", "-32600"},
		{`{"jsonrpc":"2.0","method":"ping","params":{"a":"` + strings.Repeat("x", 5<<20) + `"},"id":"past-the-start"}`, "null", "-32600"},
		{`{"jsonrpc":"2.0","id":"long","method":"ping","params":{"a":"` + strings.Repeat("x", 5<<20) + `"}}`, `"long"`, "-32600"},
		{"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\",\"method\":\"ping\"}", "null", "-32600"},
		{`{"jsonrpc":"2.0","id":"pre","method":"tools/call","params":{"name":"memdisc","arguments":{}}}`, `"pre"`, "-32600"},
		{`{"jsonrpc":"2.0","id":"` + strings.Repeat("x", 17<<20) + `","method":"ping"}`, "null", "-32600"},
	} {
		m := exchange(tc.line)
		if string(m["id"]) != tc.id || errorCode(m) != tc.code {
			t.Fatalf("%.60q: got id %s and code %s, want id %s and code %s", tc.line, m["id"], errorCode(m), tc.id, tc.code)
		}
	}
	init := exchange(`{"jsonrpc":"2.0","id":1.5,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if string(init["id"]) != "1.5" || init["error"] != nil {
		t.Fatalf("initialize with id 1.5: got %v", init)
	}
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	huge := `123456789012345678901234567890`
	res := exchange(`{"jsonrpc":"2.0","id":` + huge + `,"method":"tools/call","params":{"name":"memsetup","arguments":{"session_id":"bad-lines"}}}`)
	if string(res["id"]) != huge || res["error"] != nil {
		t.Fatalf("memsetup with a huge id: got %v", res)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve after stdin closed: %v; stderr: %s", err, stderr.String())
	}
}
