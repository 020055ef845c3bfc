package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A successful tool answer is its JSON twice: as structuredContent and, for
// clients that read only content, the same JSON as a text block. The SDK
// encodes a CallToolResult with encoding/json, which compacts the
// structured copy, escapes the text copy, then compacts its own output
// again: for a memdisc of 50 items (15 KiB) that was a quarter of serve's
// CPU per call, and most of its garbage.
//
// Over stdio the answer is encoded once, by the tool: the SDK is handed a
// stand-in result that names it (a marker and a number, in place of both
// copies), and the stdio transport puts the tool's bytes back in place of
// the stand-ins when it writes the line. What the client reads is the
// same bytes the SDK would have written (TestEncoded_SameBytesAsSDK). Other
// transports (HTTP, in memory) get the result the SDK encodes.

// encodedMarker begins both stand-ins. A real answer's text block begins
// with its JSON ("{"), so it cannot be taken for one.
const encodedMarker = "clumsies.encoded:"

// encodedKey is the context key of a connection's encodedAnswers.
type encodedKey struct{}

// encodedAnswers holds the answers of one stdio connection that the SDK
// has stand-ins for, until its transport writes them.
type encodedAnswers struct {
	mu   sync.Mutex
	next uint64
	m    map[uint64]encodedAnswer
}

// encodedAnswer is one tool answer encoded once: its JSON, and the same
// JSON as a JSON string (quotes included).
type encodedAnswer struct {
	structured, text []byte
}

func newEncodedAnswers() *encodedAnswers {
	return &encodedAnswers{m: map[uint64]encodedAnswer{}}
}

// withEncodedAnswers returns ctx carrying a, for the tool handlers of the
// connection it serves.
func withEncodedAnswers(ctx context.Context, a *encodedAnswers) context.Context {
	return context.WithValue(ctx, encodedKey{}, a)
}

// successResult is a successful call's answer for body, the result's
// JSON: over stdio a stand-in for body encoded once, elsewhere body as
// structuredContent and as text.
func successResult(ctx context.Context, body []byte) *mcp.CallToolResult {
	a, _ := ctx.Value(encodedKey{}).(*encodedAnswers)
	if a == nil {
		return &mcp.CallToolResult{
			StructuredContent: json.RawMessage(body),
			Content:           []mcp.Content{&mcp.TextContent{Text: string(body)}},
		}
	}
	n := a.put(encodedAnswer{structured: body, text: appendJSONString(make([]byte, 0, len(body)+len(body)/8+2), body)})
	num := strconv.FormatUint(n, 10)
	return &mcp.CallToolResult{
		StructuredContent: json.RawMessage(`{"` + encodedMarker + `":` + num + `}`),
		Content:           []mcp.Content{&mcp.TextContent{Text: encodedMarker + num}},
	}
}

func (a *encodedAnswers) put(e encodedAnswer) uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.next++
	a.m[a.next] = e
	return a.next
}

// take removes and returns answer n.
func (a *encodedAnswers) take(n uint64) (encodedAnswer, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	e, ok := a.m[n]
	delete(a.m, n)
	return e, ok
}

// forget drops every answer not yet written: called when no call is in
// flight, so that an answer the SDK never wrote (a call cancelled after
// its tool returned) is not kept.
func (a *encodedAnswers) forget() {
	a.mu.Lock()
	defer a.mu.Unlock()
	clear(a.m)
}

// expand returns result, the SDK's encoding of a CallToolResult, with the
// stand-ins of an encoded answer replaced by its bytes, or result as it is
// when it holds none. The SDK writes the result's members in a fixed
// order (_meta, content, structuredContent, ...), so the first content
// member that is a text stand-in is the result's own.
func (a *encodedAnswers) expand(result []byte) []byte {
	const contentHead = `"content":[{"type":"text","text":`
	at := bytes.Index(result, []byte(contentHead+`"`+encodedMarker))
	if at < 1 || (result[at-1] != '{' && result[at-1] != ',') {
		return result
	}
	textAt := at + len(contentHead) // the text stand-in's opening quote
	numAt := textAt + 1 + len(encodedMarker)
	end := bytes.IndexByte(result[numAt:], '"')
	if end < 0 {
		return result
	}
	num := result[numAt : numAt+end]
	textEnd := numAt + end + 1 // after the stand-in's closing quote
	n, err := strconv.ParseUint(string(num), 10, 64)
	if err != nil || !bytes.HasPrefix(result[textEnd:], []byte(`}]`)) {
		return result
	}
	structStub := []byte(`"structuredContent":{"` + encodedMarker + `":` + string(num) + `}`)
	structAt := bytes.Index(result[textEnd:], structStub)
	if structAt < 0 {
		return result
	}
	structAt += textEnd
	e, ok := a.take(n)
	if !ok {
		return result
	}
	out := make([]byte, 0, len(result)+len(e.text)+len(e.structured))
	out = append(out, result[:textAt]...)
	out = append(out, e.text...)
	out = append(out, result[textEnd:structAt]...)
	out = append(out, `"structuredContent":`...)
	out = append(out, e.structured...)
	return append(out, result[structAt+len(structStub):]...)
}

// appendJSONString appends body, compact JSON as encoding/json writes it,
// as a JSON string. Such JSON holds no control character and no invalid
// UTF-8 (encoding/json escapes them, and U+2028, U+2029, <, > and &), so
// only its quotes and backslashes need escaping.
func appendJSONString(dst, body []byte) []byte {
	dst = append(dst, '"')
	for len(body) > 0 {
		i := bytes.IndexAny(body, `"\`)
		if i < 0 {
			dst = append(dst, body...)
			break
		}
		dst = append(dst, body[:i]...)
		dst = append(dst, '\\', body[i])
		body = body[i+1:]
	}
	return append(dst, '"')
}
