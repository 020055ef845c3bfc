package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Limits of one stdio line. The largest valid request (an artifact body of
// MaxBody bytes, every byte escaped as \u00XX, plus the capped free-text
// fields) fits well under MaxLine.
const (
	// MaxLine is the longest JSON-RPC message accepted over stdio, in bytes.
	MaxLine = 4 << 20
	// MaxDepth is the deepest nesting of arrays and objects accepted in a
	// message.
	MaxDepth = 64
)

// JSON-RPC answers the stdio transport gives itself, without the SDK.
const (
	msgParse     = "Parse error: the line is not JSON; send one JSON-RPC 2.0 message per line"
	msgBatch     = "Invalid Request: batches are not supported; send one JSON-RPC 2.0 message per line"
	msgNotObject = "Invalid Request: a message must be a JSON object"
	msgVersion   = `Invalid Request: "jsonrpc" must be "2.0"`
	msgID        = "Invalid Request: id must be a string, a number or null"
	msgIDUTF8    = "Invalid Request: a string id must be valid UTF-8"
	msgMethod    = "Invalid Request: method must be a string"
	msgParams    = "Invalid Request: params must be an object or an array"
	msgResponse  = "Invalid Request: a message without method must be a response with an id and a result or an error"
	msgNotInit   = "Invalid Request: the session is not initialized; call initialize first"
)

var (
	msgTooLong = fmt.Sprintf("Invalid Request: message over %d bytes", MaxLine)
	msgDeep    = fmt.Sprintf("Invalid Request: message nested deeper than %d levels", MaxDepth)
)

// lineTransport is the stdio transport: newline-delimited JSON-RPC 2.0 over
// in and out. Unlike the SDK's, a bad line never ends the session: the
// transport answers it itself, as JSON-RPC 2.0 says (parse error, invalid
// request), and reads on. It also echoes every request id exactly as the
// client sent it (1.5, 1e400, 12345678901234567890, "x", null): the SDK
// sees ids of its own, and the answers get the client's ids back. A line
// refused whole (over MaxLine, or nested deeper than MaxDepth) is answered
// with its id too when the line's first bytes hold it (scanID), so that the
// host is not left waiting for an answer it cannot match; a string id that
// is not valid UTF-8 is refused with a null id, as echoing it would make
// the answer a line that is not JSON.
type lineTransport struct {
	in  io.ReadCloser
	out io.Writer
	log *slog.Logger
	// answers, if set, are the tools' answers encoded once (encoded.go),
	// put in place of their stand-ins as they are written.
	answers *encodedAnswers
}

// Connect implements mcp.Transport.
func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{
		in:       t.in,
		out:      t.out,
		log:      t.log,
		answers:  t.answers,
		incoming: make(chan jsonrpc.Message),
		done:     make(chan struct{}),
		wire:     map[int64]json.RawMessage{},
		byWire:   map[string]int64{},
		initID:   -1,
	}
	go c.readLoop()
	return c, nil
}

// lineConn is one stdio session's connection (mcp.Connection).
type lineConn struct {
	in      io.ReadCloser
	out     io.Writer
	log     *slog.Logger
	answers *encodedAnswers // nil: none

	wmu sync.Mutex // one line at a time on out

	incoming chan jsonrpc.Message
	done     chan struct{} // closed by Close
	closing  sync.Once
	readErr  error // why the read loop ended; set before incoming closes

	// ids maps the SDK's ids of calls in flight to the ids the client sent.
	ids         sync.Mutex
	next        int64
	wire        map[int64]json.RawMessage // SDK id -> client id, as sent
	byWire      map[string]int64          // client id -> SDK id, for cancellations
	initID      int64                     // SDK id of the initialize call in flight, or -1
	initialized atomic.Bool               // an initialize call succeeded
}

var _ mcp.Connection = (*lineConn)(nil)

// SessionID implements mcp.Connection; stdio has no session id.
func (c *lineConn) SessionID() string { return "" }

// Read implements mcp.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, io.EOF
	case msg, ok := <-c.incoming:
		if !ok {
			return nil, c.readErr
		}
		return msg, nil
	}
}

// Close implements mcp.Connection. It closes the input, which ends the
// read loop.
func (c *lineConn) Close() error {
	var err error
	c.closing.Do(func() {
		close(c.done)
		err = c.in.Close()
	})
	return err
}

// readLoop reads lines until the input ends, answering bad lines itself and
// handing the others to Read.
func (c *lineConn) readLoop() {
	r := bufio.NewReaderSize(c.in, 64<<10)
	var err error
	for err == nil {
		var line []byte
		var long bool
		line, long, err = readLine(r, MaxLine)
		if long {
			c.reply(scanID(line), jsonrpc.CodeInvalidRequest, msgTooLong)
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		msg := c.decode(line)
		if msg == nil {
			continue
		}
		select {
		case c.incoming <- msg:
		case <-c.done:
			return
		}
	}
	if errors.Is(err, io.EOF) {
		c.readErr = io.EOF
	} else {
		c.readErr = fmt.Errorf("read stdin: %w", err)
	}
	// The input has ended (the client went, or a signal closed it): the
	// calls already read finish and are answered before the session ends,
	// for at most drainFor, so that no call is stored without its answer.
	c.drain(drainFor)
	close(c.incoming)
}

// drainFor bounds how long the end of a session waits for the calls in
// flight to be answered.
const drainFor = 10 * time.Second

// drain waits until no call is in flight, or limit passes, or Close.
func (c *lineConn) drain(limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		c.ids.Lock()
		n := len(c.wire)
		c.ids.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.done:
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
	c.log.Warn("the session ended with calls still in flight", "waited", limit)
}

// readLine returns the next line without its line end. A line longer than
// max is read to its end and dropped: long reports it, and line holds its
// first idScanMax bytes, for the id of the answer. err is set at the end
// of the input (the last line, if unterminated, comes with it).
func readLine(r *bufio.Reader, max int) (line []byte, long bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		switch {
		case long:
		case len(line)+len(chunk) > max+2: // +2: the line end
			long = true
			if n := idScanMax - len(line); n > 0 {
				line = append(line, chunk[:min(n, len(chunk))]...)
			}
			line = bytes.Clone(line[:min(len(line), idScanMax)])
		default:
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if long {
			return line, true, err
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		return line, false, err
	}
}

// decode turns one line into a message for the SDK, or answers it itself
// and returns nil.
func (c *lineConn) decode(line []byte) jsonrpc.Message {
	if !json.Valid(line) {
		c.reply(nil, jsonrpc.CodeParseError, msgParse)
		return nil
	}
	if depth(line) > MaxDepth {
		c.reply(scanID(line), jsonrpc.CodeInvalidRequest, msgDeep)
		return nil
	}
	switch first(line) {
	case '{':
	case '[':
		c.reply(nil, jsonrpc.CodeInvalidRequest, msgBatch)
		return nil
	default:
		c.reply(nil, jsonrpc.CodeInvalidRequest, msgNotObject)
		return nil
	}
	// The members are the line's own bytes (a line is read into a buffer
	// of its own); a member given twice counts once, the last.
	m := make(map[string]json.RawMessage, 4)
	if err := eachMember(line, func(name string, v json.RawMessage) error { m[name] = v; return nil }); err != nil {
		c.reply(nil, jsonrpc.CodeParseError, msgParse)
		return nil
	}
	rawID, hasID := m["id"]
	if hasID && !validID(rawID) {
		c.reply(nil, jsonrpc.CodeInvalidRequest, msgID)
		return nil
	}
	if hasID && !utf8.Valid(rawID) {
		// Echoed, the id would make the answer a line that is not JSON.
		c.reply(nil, jsonrpc.CodeInvalidRequest, msgIDUTF8)
		return nil
	}
	var id json.RawMessage // what an answer echoes: the id, or null
	if hasID {
		id = rawID
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		c.replyIf(hasID, id, jsonrpc.CodeInvalidRequest, msgVersion)
		return nil
	}
	rawMethod, isRequest := m["method"]
	if !isRequest {
		return c.response(line, hasID)
	}
	var method string
	if err := json.Unmarshal(rawMethod, &method); err != nil {
		c.replyIf(hasID, id, jsonrpc.CodeInvalidRequest, msgMethod)
		return nil
	}
	params := m["params"]
	if params != nil && first(params) != '{' && first(params) != '[' {
		c.replyIf(hasID, id, jsonrpc.CodeInvalidRequest, msgParams)
		return nil
	}
	if !hasID {
		return c.notification(method, params)
	}
	if !c.initialized.Load() && method != "initialize" && method != "ping" && !sessionless(params) {
		c.reply(id, jsonrpc.CodeInvalidRequest, msgNotInit)
		return nil
	}
	return &jsonrpc.Request{ID: c.track(id, method), Method: method, Params: params}
}

// response hands a client's answer to a server request to the SDK; one it
// cannot read is dropped (JSON-RPC never answers a response).
func (c *lineConn) response(line []byte, hasID bool) jsonrpc.Message {
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil || !hasID {
		c.log.Warn("stdio: dropped a message that is neither a request nor a response", "error", err)
		return nil
	}
	return msg
}

// notification passes a notification on; a cancellation is pointed at the
// SDK's id of the call it names, and dropped if no such call is in flight.
func (c *lineConn) notification(method string, params json.RawMessage) jsonrpc.Message {
	if method == "notifications/cancelled" {
		var p map[string]json.RawMessage
		if json.Unmarshal(params, &p) != nil {
			return nil
		}
		c.ids.Lock()
		n, ok := c.byWire[string(p["requestId"])]
		c.ids.Unlock()
		if !ok {
			return nil
		}
		p["requestId"] = json.RawMessage(strconv.FormatInt(n, 10))
		params, _ = json.Marshal(p)
	}
	return &jsonrpc.Request{Method: method, Params: params}
}

// track gives a call an id of the SDK's and remembers the client's.
func (c *lineConn) track(wire json.RawMessage, method string) jsonrpc.ID {
	c.ids.Lock()
	defer c.ids.Unlock()
	c.next++
	n := c.next
	c.wire[n] = wire
	c.byWire[string(wire)] = n
	if method == "initialize" {
		c.initID = n
	}
	id, _ := jsonrpc.MakeID(float64(n))
	return id
}

// untrack forgets a call being answered and returns the client's id, or
// nil if the SDK's id is not one of a tracked call.
func (c *lineConn) untrack(id jsonrpc.ID, failed bool) json.RawMessage {
	n, ok := id.Raw().(int64)
	if !ok {
		return nil
	}
	c.ids.Lock()
	defer c.ids.Unlock()
	wire, ok := c.wire[n]
	if !ok {
		return nil
	}
	delete(c.wire, n)
	if c.byWire[string(wire)] == n {
		delete(c.byWire, string(wire))
	}
	if len(c.wire) == 0 && c.answers != nil {
		// No call in flight: an answer still held was never written.
		c.answers.forget()
	}
	if n == c.initID {
		c.initID = -1
		if !failed {
			c.initialized.Store(true)
		}
	}
	return wire
}

// Write implements mcp.Connection. Answers carry the client's id back, and
// an error without a JSON-RPC code gets -32603 (internal error).
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var data []byte
	var err error
	if resp, ok := msg.(*jsonrpc.Response); ok {
		if c.answers != nil && resp.Error == nil {
			// Before untrack, which forgets the answers held once no call
			// is in flight.
			if s, ok := c.answers.takeFrom(resp.Result); ok {
				return c.writeAnswer(resp, s)
			}
		}
		data, err = encodeResponse(resp, c.untrack(resp.ID, resp.Error != nil))
	} else {
		data, err = jsonrpc.EncodeMessage(msg)
	}
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	return c.writeLine(data)
}

// writeAnswer writes the line of a successful answer whose result holds
// the stand-ins s, with the answer's bytes in their place, from a pooled
// buffer; the answer's own buffer goes back to the pool once written.
func (c *lineConn) writeAnswer(resp *jsonrpc.Response, s standIns) error {
	wire, err := wireID(resp, c.untrack(resp.ID, false))
	if err != nil {
		putAnswerBuf(s.answer.buf)
		return fmt.Errorf("encode message: %w", err)
	}
	buf := getAnswerBuf()
	defer putAnswerBuf(buf)
	*buf = appendResultHead(*buf, wire)
	*buf = append(s.appendTo(*buf, resp.Result), '}', '\n')
	putAnswerBuf(s.answer.buf)
	return c.writeRaw(*buf)
}

// wireResponse is a JSON-RPC 2.0 response as written.
type wireResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *jsonrpc.Error  `json:"error,omitempty"`
}

// encodeResponse encodes resp with the client's id (wire; nil keeps the
// SDK's).
func encodeResponse(resp *jsonrpc.Response, wire json.RawMessage) ([]byte, error) {
	wire, err := wireID(resp, wire)
	if err != nil {
		return nil, err
	}
	if resp.Error == nil && resp.Result != nil && bytes.IndexByte(resp.Result, '\n') < 0 {
		// The usual answer: the SDK's result is compact JSON already
		// (its encoder's output), so it is copied, not encoded again.
		return appendResult(wire, resp.Result), nil
	}
	w := wireResponse{JSONRPC: "2.0", ID: wire}
	switch {
	case resp.Error != nil:
		var je *jsonrpc.Error
		if !errors.As(resp.Error, &je) {
			je = &jsonrpc.Error{Message: resp.Error.Error()}
		}
		e := *je
		if e.Code == 0 {
			e.Code = jsonrpc.CodeInternalError
		}
		w.Error = &e
	case resp.Result == nil:
		w.Result = json.RawMessage("null")
	default:
		w.Result = resp.Result
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// wireID returns the id an answer to resp carries: the client's (wire),
// or the SDK's when wire is nil.
func wireID(resp *jsonrpc.Response, wire json.RawMessage) (json.RawMessage, error) {
	if wire != nil {
		return wire, nil
	}
	return json.Marshal(resp.ID.Raw())
}

// appendResult returns the line of a successful answer: the same bytes as
// wireResponse's encoding, with room for the line end.
func appendResult(id, result json.RawMessage) []byte {
	b := make([]byte, 0, len(resultHead)+len(resultMid)+len(id)+len(result)+2)
	b = append(appendResultHead(b, id), result...)
	return append(b, '}')
}

// The parts of a successful answer's line before its result.
const resultHead, resultMid = `{"jsonrpc":"2.0","id":`, `,"result":`

// appendResultHead appends what a successful answer's line holds before
// its result.
func appendResultHead(dst []byte, id json.RawMessage) []byte {
	dst = append(dst, resultHead...)
	dst = append(dst, id...)
	return append(dst, resultMid...)
}

// reply answers a line the SDK never sees. id nil means null.
func (c *lineConn) reply(id json.RawMessage, code int64, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(wireResponse{JSONRPC: "2.0", ID: id, Error: &jsonrpc.Error{Code: code, Message: message}})
	if err := c.writeLine(data); err != nil {
		c.log.Warn("stdio: answer a bad message", "error", err)
	}
}

// replyIf answers a bad request, unless it was a notification (no id),
// which JSON-RPC never answers.
func (c *lineConn) replyIf(hasID bool, id json.RawMessage, code int64, message string) {
	if hasID {
		c.reply(id, code, message)
	}
}

func (c *lineConn) writeLine(data []byte) error {
	return c.writeRaw(append(data, '\n'))
}

// writeRaw writes line, which ends with its line end.
func (c *lineConn) writeRaw(line []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.out.Write(line); err != nil {
		return fmt.Errorf("write stdout: %w", err)
	}
	return nil
}

// validID reports whether a raw id is a string, a number or null.
func validID(raw json.RawMessage) bool {
	switch b := first(raw); {
	case b == '"', b == 'n', b == '-', b >= '0' && b <= '9':
		return true
	}
	return false
}

// sessionless reports whether a request's params carry a protocol version
// of their own (the sessionless protocol, which needs no initialize):
// whether json.Unmarshal of params into a struct with a member _meta, a
// map, gives a map with the key metaProtocolVersion. params must be valid
// JSON, or empty. It reads params where they are, without decoding them
// (FuzzSessionless holds it to what Unmarshal says), for it is asked of
// every call of a client that does not initialize.
func sessionless(params json.RawMessage) bool {
	if len(params) == 0 || first(params) != '{' {
		return false // null gives no map; anything else fails to decode
	}
	found := false
	err := eachRawMember(params, func(name, v []byte) error {
		if !nameFolds(name, "_meta") { // encoding/json matches a field's name regardless of case
			return nil
		}
		switch first(v) {
		case 'n': // null: no map
			found = false
		case '{': // decoded into the map there is, if any: its keys add up
			found = found || hasMember(v, metaProtocolVersion)
		default:
			return errNotMap
		}
		return nil
	})
	return err == nil && found
}

// metaProtocolVersion is the _meta key of a request's own protocol
// version.
const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// errNotMap and errFound stop a walk of members.
var (
	errNotMap = errors.New("_meta is not an object")
	errFound  = errors.New("found")
)

// hasMember reports whether the valid JSON object obj has a member named
// name.
func hasMember(obj []byte, name string) bool {
	return eachRawMember(obj, func(lit, _ []byte) error {
		if nameIs(lit, name) {
			return errFound
		}
		return nil
	}) == errFound
}

// nameIs reports whether the string literal lit stands for name.
func nameIs(lit []byte, name string) bool {
	if bytes.IndexByte(lit, '\\') < 0 {
		return string(lit[1:len(lit)-1]) == name
	}
	s, err := unquote(lit)
	return err == nil && s == name
}

// nameFolds reports whether the string literal lit stands for name, or for
// name in other case (name is ASCII and has no k or s, whose folds are not).
func nameFolds(lit []byte, name string) bool {
	if bytes.IndexByte(lit, '\\') < 0 {
		return strings.EqualFold(string(lit[1:len(lit)-1]), name)
	}
	s, err := unquote(lit)
	return err == nil && strings.EqualFold(s, name)
}

// first returns the first byte of valid JSON after white space.
func first(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}
