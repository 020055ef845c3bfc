package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/mcp"
	"github.com/clumsies/clumsies/projections/projectionstest"
	"github.com/clumsies/clumsies/views/live"
	"github.com/clumsies/clumsies/views/web"
)

// wait bounds every wait for something the test expects to happen.
const wait = 5 * time.Second

const workspaceID = "ws-web-test"

// The one published rule of every backend.
const (
	ruleID   = "p-0123456789abcdef0123456789abcdef"
	rulePath = "workflow/CODING.md"
	ruleBody = "# Coding\n\n## Steps\n\n1. Write a failing test.\n2. Make it pass.\n"
)

// backend is a real workspace backend in memory: a MemoryLog, a pebble
// store on vfs.NewMem() following it, and the MCP server over both.
type backend struct {
	log *events.MemoryLog
	srv *mcp.Server
}

func newBackend(tb testing.TB) *backend {
	tb.Helper()
	log := events.NewMemoryLog()
	store := projectionstest.Following(tb, log)
	b := &backend{log: log, srv: mcp.NewServer(mcp.Config{
		WorkspaceID: workspaceID,
		Catalog:     store,
		Ledger:      mcp.LogLedger{Log: log, Store: store},
		Logger:      slog.New(slog.DiscardHandler),
		Version:     "test",
	})}
	ev, err := events.New(workspaceID, events.TypeCatalogPublish, events.PublishData{
		ID: ruleID, Kind: string(content.KindWorkflow), Path: rulePath, Name: content.NameOf(rulePath),
		Group: content.GroupOf(rulePath), Hash: content.Hash([]byte(ruleBody)), Body: ruleBody,
	})
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	seq, err := log.Append(ctx, ev)
	if err != nil {
		tb.Fatal(err)
	}
	if err := store.WaitFor(ctx, seq); err != nil {
		tb.Fatal(err)
	}
	return b
}

// options returns web options that mount the backend's MCP server and
// its live event stream.
func (b *backend) options(token string) web.Options {
	return web.Options{
		MCP:    b.srv.HTTPHandler(),
		Events: live.Handler(b.log, live.Options{}),
		Token:  token,
	}
}

// serve serves the backend through web.Handler on a real loopback server
// that the test closes at its end.
func (b *backend) serve(tb testing.TB, token string) *httptest.Server {
	tb.Helper()
	ts := httptest.NewServer(web.Handler(b.options(token)))
	tb.Cleanup(ts.Close)
	return ts
}

// events returns every event in the log.
func (b *backend) events(tb testing.TB) []events.Event {
	tb.Helper()
	var out []events.Event
	if err := b.log.Replay(context.Background(), 1, func(ev events.Event) error {
		out = append(out, ev)
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	return out
}

// rpcClient is an MCP client over Streamable HTTP written with net/http
// only: it sends JSON-RPC requests as POSTs and reads the answer as JSON or
// as an SSE stream, whichever the server chooses.
type rpcClient struct {
	tb      testing.TB
	url     string // the /mcp endpoint
	token   string // bearer token, if any
	session string // Mcp-Session-Id, once initialized
	version string // the negotiated protocol version
	nextID  int
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type rpcResponse struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// connect runs the MCP handshake (initialize, notifications/initialized)
// and returns the client, bound to its own MCP session.
func connect(tb testing.TB, url, token string) *rpcClient {
	tb.Helper()
	c := &rpcClient{tb: tb, url: url, token: token}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
	}
	c.call("initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "web-test", "version": "1"},
	}, &init)
	if c.session == "" {
		tb.Fatal("initialize: got no Mcp-Session-Id header, want one")
	}
	if init.ServerInfo.Name != "clumsies" {
		tb.Fatalf("initialize: got server %q, want clumsies", init.ServerInfo.Name)
	}
	c.version = init.ProtocolVersion
	resp := c.post(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	body := readAll(tb, resp)
	if resp.StatusCode != http.StatusAccepted {
		tb.Fatalf("notifications/initialized: got status %d (%s), want 202", resp.StatusCode, body)
	}
	tb.Cleanup(c.close)
	return c
}

// post sends one JSON-RPC message and returns the response, whose body the
// caller must close.
func (c *rpcClient) post(msg any) *http.Response {
	c.tb.Helper()
	body, err := json.Marshal(msg)
	if err != nil {
		c.tb.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		c.tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	c.headers(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.tb.Fatalf("POST %s: %v", c.url, err)
	}
	return resp
}

func (c *rpcClient) headers(req *http.Request) {
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	if c.version != "" {
		req.Header.Set("Mcp-Protocol-Version", c.version)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
}

// call sends a request and decodes its result into out (if not nil). A
// JSON-RPC error fails the test.
func (c *rpcClient) call(method string, params, out any) {
	c.tb.Helper()
	r := c.request(method, params)
	if r.Error != nil {
		c.tb.Fatalf("%s: got JSON-RPC error %d %q, want a result", method, r.Error.Code, r.Error.Message)
	}
	if out != nil {
		if err := json.Unmarshal(r.Result, out); err != nil {
			c.tb.Fatalf("%s: decode result %s: %v", method, r.Result, err)
		}
	}
}

// request sends a request and returns its response message.
func (c *rpcClient) request(method string, params any) rpcResponse {
	c.tb.Helper()
	c.nextID++
	id := c.nextID
	resp := c.post(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		c.tb.Fatalf("%s: got status %d (%s), want 200", method, resp.StatusCode, readAll(c.tb, resp))
	}
	if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
		c.session = s
	}
	want := fmt.Sprint(id)
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "application/json":
		var r rpcResponse
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			c.tb.Fatalf("%s: decode response: %v", method, err)
		}
		return r
	case "text/event-stream":
		msgs := readSSE(resp.Body)
		for m := range msgs {
			var r rpcResponse
			if json.Unmarshal([]byte(m.data), &r) == nil && string(r.ID) == want {
				return r
			}
		}
		c.tb.Fatalf("%s: the event stream ended without the response to id %s", method, want)
	default:
		c.tb.Fatalf("%s: got Content-Type %q, want JSON or an event stream", method, mt)
	}
	return rpcResponse{}
}

// tool calls a tool and returns its structured content and isError.
func (c *rpcClient) tool(name string, args any) (map[string]any, bool) {
	c.tb.Helper()
	var res struct {
		IsError           bool           `json:"isError"`
		StructuredContent map[string]any `json:"structuredContent"`
	}
	c.call("tools/call", map[string]any{"name": name, "arguments": args}, &res)
	return res.StructuredContent, res.IsError
}

// mustTool calls a tool that must succeed.
func (c *rpcClient) mustTool(name string, args any) map[string]any {
	c.tb.Helper()
	res, isErr := c.tool(name, args)
	if isErr {
		c.tb.Fatalf("%s: got error %v, want success", name, res)
	}
	return res
}

// close ends the MCP session (DELETE), as a client that is done does.
func (c *rpcClient) close() {
	req, err := http.NewRequest(http.MethodDelete, c.url, nil)
	if err != nil {
		return
	}
	c.headers(req)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
}

// message is one SSE message, or a comment when comment is set.
type message struct {
	id, event, data, comment string
}

// readSSE parses an event stream into messages until it ends; the channel
// is closed then.
func readSSE(body io.Reader) <-chan message {
	out := make(chan message, 100)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
		var m message
		for sc.Scan() {
			line := sc.Text()
			if line == "" {
				if m != (message{}) {
					out <- m
				}
				m = message{}
				continue
			}
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "":
				m.comment = value
			case "id":
				m.id = value
			case "event":
				m.event = value
			case "data":
				if m.data != "" {
					m.data += "\n"
				}
				m.data += value
			}
		}
	}()
	return out
}

// stream is an open GET /events as a client sees it.
type stream struct {
	resp   *http.Response
	cancel context.CancelFunc
	msgs   <-chan message
}

// openEvents opens GET url and fails tb unless it gets 200. The stream is
// closed when the test ends.
func openEvents(tb testing.TB, url string, header map[string]string) *stream {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		tb.Fatalf("GET %s: %v", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		body := readAll(tb, resp)
		cancel()
		tb.Fatalf("GET %s: got status %d (%s), want 200", url, resp.StatusCode, body)
	}
	s := &stream{resp: resp, cancel: cancel, msgs: readSSE(resp.Body)}
	tb.Cleanup(s.close)
	return s
}

func (s *stream) close() {
	s.cancel()
	s.resp.Body.Close()
}

// nextEvent returns the next event, skipping comments, and fails tb if
// none comes in time.
func (s *stream) nextEvent(tb testing.TB) (message, events.Event) {
	tb.Helper()
	timeout := time.After(wait)
	for {
		select {
		case m, ok := <-s.msgs:
			if !ok {
				tb.Fatal("stream ended, want an event")
			}
			if m.comment != "" && m.data == "" {
				continue
			}
			var ev events.Event
			if err := json.Unmarshal([]byte(m.data), &ev); err != nil {
				tb.Fatalf("decode event %q: %v", m.data, err)
			}
			return m, ev
		case <-timeout:
			tb.Fatal("no event in time")
		}
	}
}

// quiet fails tb if an event arrives within d.
func (s *stream) quiet(tb testing.TB, d time.Duration) {
	tb.Helper()
	timeout := time.After(d)
	for {
		select {
		case m, ok := <-s.msgs:
			if ok && m.data != "" {
				tb.Fatalf("got event %s %s, want none", m.event, m.data)
			}
			if !ok {
				return
			}
		case <-timeout:
			return
		}
	}
}

// get sends a GET with the given headers and returns the status and body.
func get(tb testing.TB, url string, header map[string]string) (*http.Response, string) {
	tb.Helper()
	return do(tb, http.MethodGet, url, header, "")
}

// do sends a request and returns the response (body already read) and its body.
func do(tb testing.TB, method, url string, header map[string]string, body string) (*http.Response, string) {
	tb.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, url, err)
	}
	return resp, readAll(tb, resp)
}

// statusOf sends a GET and returns its status without waiting for the end
// of a 200 response (an event stream does not end); the body of any other
// status is returned.
func statusOf(tb testing.TB, url string, header map[string]string) (int, string) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		return resp.StatusCode, ""
	}
	return resp.StatusCode, readAll(tb, resp)
}

func readAll(tb testing.TB, resp *http.Response) string {
	tb.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("read body: %v", err)
	}
	return string(b)
}

// setupArgs are memsetup's arguments for session id.
func setupArgs(id string) map[string]any {
	return map[string]any{"session_id": id, "knownHashes": map[string]any{"META_PROMPT.md": ""}}
}
