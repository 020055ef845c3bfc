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

// encodedMarker begins both stand-ins. Only stand-ins are handed to the
// SDK over stdio, and a real answer's text block begins with its JSON
// ("{") or a listing's first line, never with the marker.
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

// encodedAnswer is one tool answer encoded once: its JSON, and its text
// block (the JSON again when text is nil), written as a JSON string when
// the line is; buf is the pooled buffer they are in, if any (answer.go).
type encodedAnswer struct {
	structured, text []byte
	buf              *[]byte
}

func newEncodedAnswers() *encodedAnswers {
	return &encodedAnswers{m: map[uint64]encodedAnswer{}}
}

// withEncodedAnswers returns ctx carrying a, for the tool handlers of the
// connection it serves.
func withEncodedAnswers(ctx context.Context, a *encodedAnswers) context.Context {
	return context.WithValue(ctx, encodedKey{}, a)
}

// encodedIn returns the encodedAnswers of ctx's connection, nil when it
// has none (not stdio).
func encodedIn(ctx context.Context) *encodedAnswers {
	a, _ := ctx.Value(encodedKey{}).(*encodedAnswers)
	return a
}

// successResult is a successful call's answer. Over stdio it is a
// stand-in for both copies, encoded once, elsewhere ans.body as
// structuredContent and ans.text (or ans.body) as text.
func successResult(ctx context.Context, ans resultBytes) *mcp.CallToolResult {
	a := encodedIn(ctx)
	if a == nil {
		text := ans.text
		if text == nil {
			text = ans.body
		}
		return &mcp.CallToolResult{
			StructuredContent: json.RawMessage(ans.body),
			Content:           []mcp.Content{&mcp.TextContent{Text: string(text)}},
		}
	}
	n := a.put(encodedAnswer{structured: ans.body, text: ans.text, buf: ans.buf})
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
// its tool returned) is not kept. Their buffers are left to the
// collector.
func (a *encodedAnswers) forget() {
	a.mu.Lock()
	defer a.mu.Unlock()
	clear(a.m)
}

// standIns is an encoded answer found in a result the SDK encoded, and
// where its two stand-ins are in that result.
type standIns struct {
	answer           encodedAnswer
	text, structured [2]int // each stand-in's start and end
}

// takeFrom finds the stand-ins of an encoded answer in result, the SDK's
// encoding of a CallToolResult, and takes that answer: false when result
// holds none. The SDK writes the result's members in a fixed order
// (_meta, content, structuredContent, ...), so the first content member
// that is a text stand-in is the result's own.
func (a *encodedAnswers) takeFrom(result []byte) (standIns, bool) {
	const contentHead = `"content":[{"type":"text","text":`
	at := bytes.Index(result, []byte(contentHead+`"`+encodedMarker))
	if at < 1 || (result[at-1] != '{' && result[at-1] != ',') {
		return standIns{}, false
	}
	textAt := at + len(contentHead) // the text stand-in's opening quote
	numAt := textAt + 1 + len(encodedMarker)
	end := bytes.IndexByte(result[numAt:], '"')
	if end < 0 {
		return standIns{}, false
	}
	num := result[numAt : numAt+end]
	textEnd := numAt + end + 1 // after the stand-in's closing quote
	n, err := strconv.ParseUint(string(num), 10, 64)
	if err != nil || !bytes.HasPrefix(result[textEnd:], []byte(`}]`)) {
		return standIns{}, false
	}
	const structHead = `"structuredContent":`
	structStub := []byte(structHead + `{"` + encodedMarker + `":` + string(num) + `}`)
	structAt := bytes.Index(result[textEnd:], structStub)
	if structAt < 0 {
		return standIns{}, false
	}
	structAt += textEnd + len(structHead)
	e, ok := a.take(n)
	if !ok {
		return standIns{}, false
	}
	return standIns{answer: e, text: [2]int{textAt, textEnd}, structured: [2]int{structAt, structAt + len(structStub) - len(structHead)}}, true
}

// appendTo appends result, in which s was found, with the answer's bytes
// in place of the stand-ins: the text block as a JSON string.
func (s *standIns) appendTo(dst, result []byte) []byte {
	text := s.answer.text
	if text == nil {
		text = s.answer.structured
	}
	dst = append(dst, result[:s.text[0]]...)
	dst = appendJSONString(dst, text)
	dst = append(dst, result[s.text[1]:s.structured[0]]...)
	dst = append(dst, s.answer.structured...)
	return append(dst, result[s.structured[1]:]...)
}

// appendJSONString appends body as a JSON string, as the SDK writes a
// text block (TextContent's MarshalJSON: encoding/json, which escapes <, >
// and &). body is compact JSON as encoding/json writes it, or a text block
// written for the model (modelText); neither holds a control character
// other than the newlines between a text's lines, invalid UTF-8, U+2028 or
// U+2029 (encoding/json escapes them in JSON, and appendLine leaves them
// out of a text's lines), so only quotes, backslashes, newlines and <, >
// and & need escaping.
func appendJSONString(dst, body []byte) []byte {
	dst = append(dst, '"')
	for len(body) > 0 {
		i := bytes.IndexAny(body, "\"\\\n<>&")
		if i < 0 {
			dst = append(dst, body...)
			break
		}
		dst = append(dst, body[:i]...)
		switch c := body[i]; c {
		case '\n':
			dst = append(dst, '\\', 'n')
		case '<', '>', '&':
			dst = append(dst, '\\', 'u', '0', '0', hexDigit[c>>4], hexDigit[c&0xf])
		default:
			dst = append(dst, '\\', c)
		}
		body = body[i+1:]
	}
	return append(dst, '"')
}

const hexDigit = "0123456789abcdef"
