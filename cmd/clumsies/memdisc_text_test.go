package main_test

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestServe_MemdiscTextByProtocol speaks JSON-RPC lines to the binary over
// real stdio, as a client of protocol 2025-03-26 (no structuredContent)
// and of 2025-06-18: the first gets memdisc's answer as JSON in its text
// block, the second a listing for the model, one line per item; both get
// the same structuredContent, whose items leave out hasDraft false and
// source "repo".
func TestServe_MemdiscTextByProtocol(t *testing.T) {
	dir := newWorkspace(t)
	mustRun(t, dir, "publish")
	var structured [2]map[string]any
	for i, version := range []string{"2025-03-26", "2025-06-18"} {
		text, sc := memdiscOverStdio(t, dir, version)
		structured[i] = sc
		items, _ := sc["items"].([]any)
		if len(items) == 0 {
			t.Fatalf("protocol %s: memdisc listed nothing: %v", version, sc)
		}
		for _, it := range items {
			m := it.(map[string]any)
			if _, ok := m["hasDraft"]; ok {
				t.Errorf("protocol %s: item %v carries hasDraft without a draft", version, m)
			}
			if _, ok := m["source"]; ok {
				t.Errorf("protocol %s: item %v of the repository carries source", version, m)
			}
		}
		if version == "2025-03-26" {
			var fromText map[string]any
			if err := json.Unmarshal([]byte(text), &fromText); err != nil || !reflect.DeepEqual(fromText, sc) {
				t.Fatalf("protocol %s: the text block %q is not the structured answer's JSON (%v)", version, text, err)
			}
			continue
		}
		lines := strings.Split(text, "\n")
		if want := fmt.Sprintf("Listed %d of %d matching items, by path.", len(items), len(items)); lines[0] != want || len(lines) != len(items)+1 {
			t.Fatalf("protocol %s: the listing\n%s\nwant a first line %q and one line per item", version, text, want)
		}
		for j, it := range items {
			m := it.(map[string]any)
			if head := fmt.Sprintf("%s %s %s", m["id"], m["kind"], m["path"]); !strings.HasPrefix(lines[j+1], head) {
				t.Errorf("protocol %s: line %q, want it to begin with %q", version, lines[j+1], head)
			}
		}
	}
	if !reflect.DeepEqual(structured[0], structured[1]) {
		t.Fatalf("structuredContent differs between protocols:\n%v\n%v", structured[0], structured[1])
	}
}

// memdiscOverStdio starts serve on dir, initializes at protocol version,
// sets up a session, calls memdisc and returns its text block and its
// structuredContent.
func memdiscOverStdio(t *testing.T, dir, version string) (string, map[string]any) {
	t.Helper()
	_, ask, stdin, _ := stdioSession(t, dir)
	defer stdin.Close()
	init := ask(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, version))
	if got := init["result"].(map[string]any)["protocolVersion"]; got != version {
		t.Fatalf("initialize at %s: the server chose %v", version, got)
	}
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	ask(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memsetup","arguments":{"session_id":"text-` + version + `","knownHashes":{"META_PROMPT.md":""}}}}`)
	disc := ask(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memdisc","arguments":{}}}`)
	res, _ := disc["result"].(map[string]any)
	content, _ := res["content"].([]any)
	sc, _ := res["structuredContent"].(map[string]any)
	if len(content) != 1 || sc == nil || res["isError"] == true {
		t.Fatalf("memdisc at %s: %v", version, disc)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	return text, sc
}
