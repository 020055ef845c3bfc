package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sdkEncoding is a CallToolResult as the SDK writes it in a response
// (internal/jsonrpc2's jsonMarshal: encoding/json without HTML escaping).
func sdkEncoding(tb testing.TB, r *mcp.CallToolResult) []byte {
	tb.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		tb.Fatal(err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// expanded is result with the stand-ins of an answer that a holds
// replaced by its bytes, as the stdio transport writes it.
func expanded(a *encodedAnswers, result []byte) []byte {
	s, ok := a.takeFrom(result)
	if !ok {
		return result
	}
	return s.appendTo(nil, result)
}

// TestEncoded_SameBytesAsSDK checks that an answer encoded once and put in
// place of its stand-ins is, byte for byte, what the SDK writes for the
// same answer, whatever its strings hold: with the JSON copy as text, and
// with a listing written for the model.
func TestEncoded_SameBytesAsSDK(t *testing.T) {
	nasty := `say "hi" \ back\slash \" <a href='x'>&amp;</a> é 😀 ` + "\u2028 \u2029 \t\n\r\x01 \x7f \xff\xfe"
	values := []any{
		map[string]any{},
		map[string]any{"items": []any{}, "total": 0, "truncated": false},
		map[string]any{"q": `say "hi" \ back\slash \"`, "html": "<a href='x'>&amp;</a>", "u": "é 😀 \u2028 \u2029 \t\n\r\x01 \x7f"},
		map[string]any{"bad": "\xff\xfe", "nested": []any{map[string]any{"clumsies.encoded:1": "clumsies.encoded:1"}}},
		discoverResult{Items: []discoverItem{{ID: "p-1", Kind: "rule", Path: "go/A.md", Name: "A", Hash: "sha256:00", Description: `a "quoted" rule`}}, Total: 1},
		discoverResult{Items: []discoverItem{{ID: "p-1", Kind: "rule", Path: "go/" + nasty + ".md", Name: nasty, Hash: "sha256:00",
			Description: nasty, DraftStatus: "declined", DraftReason: nasty, Source: "team", Shadows: nasty, Paths: []string{nasty}, Matched: []string{nasty}}},
			Total: 2, Truncated: true, NextCursor: "eyJ"},
	}
	for i, v := range values {
		body, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		texts := [][]byte{nil}
		if m, ok := v.(modelText); ok {
			texts = append(texts, m.appendText(nil))
		}
		for _, text := range texts {
			wantText := text
			if text == nil {
				wantText = body
			}
			for _, meta := range []mcp.Meta{nil, {"io.modelcontextprotocol/serverInfo": map[string]any{"name": "clumsies"}}} {
				want := &mcp.CallToolResult{
					Meta:              meta,
					StructuredContent: json.RawMessage(body),
					Content:           []mcp.Content{&mcp.TextContent{Text: string(wantText)}},
				}
				a := newEncodedAnswers()
				stand := successResult(withEncodedAnswers(context.Background(), a), resultBytes{body: body, text: text})
				stand.Meta = meta
				standIn := sdkEncoding(t, stand)
				if bytes.Contains(standIn, body) && len(body) > 2 {
					t.Fatalf("value %d: the stand-in holds the answer itself: %s", i, standIn)
				}
				got, wantBytes := expanded(a, standIn), sdkEncoding(t, want)
				if !bytes.Equal(got, wantBytes) {
					t.Fatalf("value %d, text %q, meta %v:\n got %s\nwant %s", i, text, meta != nil, got, wantBytes)
				}
				if len(a.m) != 0 {
					t.Fatalf("value %d: %d answers still held after they were written", i, len(a.m))
				}
				// Written once, it is gone: a second expansion changes nothing.
				if again := expanded(a, standIn); !bytes.Equal(again, standIn) {
					t.Fatalf("value %d: a stand-in was expanded twice", i)
				}
			}
		}
	}
	// Without the connection's answers (HTTP, in memory) the result holds
	// the answer itself.
	body := []byte(`{"a":"b"}`)
	if got, want := sdkEncoding(t, successResult(context.Background(), resultBytes{body: body})), `{"content":[{"type":"text","text":"{\"a\":\"b\"}"}],"structuredContent":{"a":"b"}}`; string(got) != want {
		t.Fatalf("without stdio: got %s, want %s", got, want)
	}
	if got, want := sdkEncoding(t, successResult(context.Background(), resultBytes{body: body, text: []byte("a listing")})), `{"content":[{"type":"text","text":"a listing"}],"structuredContent":{"a":"b"}}`; string(got) != want {
		t.Fatalf("without stdio, with a listing: got %s, want %s", got, want)
	}
}

// TestEncoded_ForgottenWhenNotWritten checks that an answer whose
// stand-in is never written (the SDK answered the call otherwise, as it
// does a cancelled one) is not held once no call is in flight.
func TestEncoded_ForgottenWhenNotWritten(t *testing.T) {
	a := newEncodedAnswers()
	c := &lineConn{out: io.Discard, answers: a, wire: map[int64]json.RawMessage{}, byWire: map[string]int64{}, initID: -1}
	first, second := c.track(json.RawMessage("1"), "tools/call"), c.track(json.RawMessage("2"), "tools/call")
	successResult(withEncodedAnswers(context.Background(), a), resultBytes{body: []byte(`{"x":1}`)})
	// The first call is answered with an error: the second is in flight,
	// so what it may have left is kept.
	if err := c.Write(context.Background(), &jsonrpc.Response{ID: first, Error: &jsonrpc.Error{Code: -32800, Message: "cancelled"}}); err != nil {
		t.Fatal(err)
	}
	if len(a.m) != 1 {
		t.Fatalf("%d answers held with a call in flight, want 1", len(a.m))
	}
	if err := c.Write(context.Background(), &jsonrpc.Response{ID: second, Error: &jsonrpc.Error{Code: -32800, Message: "cancelled"}}); err != nil {
		t.Fatal(err)
	}
	if len(a.m) != 0 {
		t.Fatalf("%d answers held with no call in flight, want 0", len(a.m))
	}
}

// TestStdio_AnswersEncodedOnce calls every kind of answer over stdio with
// the SDK's client, at the protocol it asks for first (2026-07-28: the
// result carries resultType and _meta), at 2025-06-18 (the first with
// structuredContent) and at 2025-03-26 (before it), and checks each
// against the same call in memory: same structuredContent, and the text
// block is that JSON, or memdisc's listing of it for a client that has
// structuredContent.
func TestStdio_AnswersEncodedOnce(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.publish("rules/go/ERRORS.md", "# Errors\n\nWrap \"errors\" with <context> & care.\n\n## Wrap\n\nWrap them.\n")
	e.publish("context/arch/overview.md", "# Architecture\n\nThe importer reads CSV \\ writes Parquet.\n")
	mem := e.connect()
	setup(t, mem, "mem")
	for _, version := range []string{"", "2025-06-18", "2025-03-26"} {
		cs := stdioClient(t, e, version)
		ctx := context.Background()
		call := func(tool string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
			t.Helper()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
			if err != nil {
				t.Fatalf("%s over stdio: %v", tool, err)
			}
			var m map[string]any
			b, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatalf("%s over stdio: structuredContent %s: %v", tool, b, err)
			}
			return res, m
		}
		call("memsetup", map[string]any{"session_id": "stdio" + version, "knownHashes": map[string]any{"META_PROMPT.md": ""}})
		disc := mustOK(t, mem, "memdisc", map[string]any{})
		first := disc["items"].([]any)[0].(map[string]any)["id"]
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"memdisc", map[string]any{}},
			{"memdisc", map[string]any{"limit": 1}},
			{"memload", map[string]any{"ids": []any{first}, "knownHashes": map[string]any{first.(string): ""}}},
		} {
			res, got := call(c.tool, c.args)
			want := mustOK(t, mem, c.tool, c.args)
			if res.IsError || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s %v (protocol %q) over stdio:\n got %v\nwant %v", c.tool, c.args, version, got, want)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if strings.Contains(text, encodedMarker) {
				t.Fatalf("%s (protocol %q): the text block %q holds a stand-in", c.tool, version, text)
			}
			if c.tool == "memdisc" && version != "2025-03-26" {
				if want := listingOf(t, got); text != want {
					t.Fatalf("memdisc (protocol %q): the text block\n%s\nis not the listing of the structured answer\n%s", version, text, want)
				}
				continue
			}
			var fromText map[string]any
			if err := json.Unmarshal([]byte(text), &fromText); err != nil || !reflect.DeepEqual(fromText, got) {
				t.Fatalf("%s (protocol %q): the text block %q is not the structured answer's JSON (%v)", c.tool, version, text, err)
			}
		}
	}
}

// listingOf returns memdisc's listing of its structured answer.
func listingOf(tb testing.TB, structured map[string]any) string {
	tb.Helper()
	b, _ := json.Marshal(structured)
	var r discoverResult
	if err := json.Unmarshal(b, &r); err != nil {
		tb.Fatalf("memdisc's answer %s: %v", b, err)
	}
	return string(r.appendText(nil))
}

// stdioClient connects the SDK's client to e's server over ServeStdio,
// asking for protocol version ("": the SDK's first choice, 2026-07-28,
// through server/discover; an older one through initialize).
func stdioClient(tb testing.TB, e *env, version string) *mcp.ClientSession {
	tb.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		_ = e.srv.ServeStdio(context.Background(), inR, outW)
		outW.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "stdio-" + version, Version: "v" + version}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		tb.Fatalf("connect over stdio: %v", err)
	}
	if got := cs.InitializeResult().ProtocolVersion; version != "" && got != version {
		tb.Fatalf("connect over stdio: asked for protocol %s, got %s", version, got)
	}
	tb.Cleanup(func() { _ = cs.Close() })
	return cs
}
