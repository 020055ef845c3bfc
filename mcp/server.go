package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Catalog is the read side the tools need. Its reads may cross a process
// boundary (the workspace owner answers them), so they take the call's
// context and can fail: an error that says the workspace is unavailable
// (an Unavailable() method) answers unavailable, never an empty success.
type Catalog interface {
	// View returns the draft-aware state of a rule, workflow, context item,
	// create draft (tmp- id) or META_PROMPT.md, with the object as
	// published under an update or rename draft (Item.InForce). It returns
	// projections.ErrNotFound for an unknown id and for an object that has a
	// delete draft.
	View(ctx context.Context, id string) (projections.Item, error)
	// List returns the draft-aware inventory (no bodies, no META_PROMPT).
	List(ctx context.Context, f projections.Filter) ([]projections.Item, error)
	// DraftFacts returns what a decision of the drafts aggregate reads,
	// from one state of the read models (catalog.DraftFacts).
	DraftFacts(ctx context.Context, q catalog.DraftQuery) (catalog.DraftFacts, error)
	// SessionBinding returns what the ledger says of a session id's
	// binding (binding.go), once the read models have applied every event
	// stored when it was asked: a session-start hook's secret recorded a
	// moment before counts.
	SessionBinding(ctx context.Context, id string) (projections.SessionBinding, error)
}

// Config configures a Server.
type Config struct {
	WorkspaceID string       // ws-...; stamped on every event
	Root        string       // the workspace's folder: memdisc reads absolute paths inside it
	Catalog     Catalog      // what the tools read
	Ledger      Ledger       // where every call is recorded
	Logger      *slog.Logger // failures in full (never stdout: it is the protocol); nil means stderr
	Version     string       // reported as the server's version
	ReadOnly    bool         // every mutation (artifact) fails read_only; the instructions say so
	// Ready, if set, is closed once the Catalog can answer. Until then
	// initialize does not wait for it: its instructions come from
	// EarlyFrame (the META_PROMPT as the content tree holds it), and only
	// tool calls wait (the Catalog and Ledger wait themselves).
	Ready      <-chan struct{}
	EarlyFrame func() (string, error)
	// Notice, if set, ends initialize's instructions: what the agent must
	// tell the user (a setting that serve runs without because it is
	// wrong).
	Notice string
	// Observer, if set, is told of every tool call after its event is
	// recorded (observe.go): the OpenTelemetry export.
	Observer CallObserver
}

// Server is the clumsies MCP server: the seven tools over one Catalog and
// one Ledger. It serves any number of connections; each binds at most one
// agent session.
type Server struct {
	cfg      Config
	log      *slog.Logger
	mcp      *mcp.Server
	sessions sessions
	tools    []*tool
	prompts  prompts // the workflows served as prompts (prompts.go)
	// discCache holds memdisc's latest answers, encoded (disccache.go).
	discCache discCache
}

// NewServer returns a Server for cfg. Catalog and Ledger must be set.
func NewServer(cfg Config) *Server {
	if cfg.Catalog == nil || cfg.Ledger == nil {
		panic("mcp: NewServer needs a Catalog and a Ledger")
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	s := &Server{cfg: cfg, log: log}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "clumsies", Title: "clumsies", Version: s.version()}, &mcp.ServerOptions{
		// The SDK logs every connection at info level; keep its warnings.
		Logger:       slog.New(minLevel{slog.LevelWarn, log.Handler()}),
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Prompts: &mcp.PromptCapabilities{ListChanged: true}},
	})
	// The instructions are the current META_PROMPT, so they are filled in
	// per connection rather than fixed in ServerOptions.
	s.mcp.AddReceivingMiddleware(s.instructionsMiddleware, s.unknownToolMiddleware, s.negotiateMiddleware, s.promptsMiddleware)
	s.mcp.AddSendingMiddleware(s.quietPromptsMiddleware)
	s.tools = s.toolset()
	for _, t := range s.tools {
		s.mcp.AddTool(t.spec(), s.handler(t))
	}
	return s
}

// ServeStdio serves one connection over in and out (newline-delimited
// JSON-RPC). A malformed line is answered with a JSON-RPC error and the
// session goes on; ids are echoed exactly as sent. It returns nil when the
// client closes in or when ctx ends (closing in, if it is an io.ReadCloser,
// to stop reading). out is never closed.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	rc, ok := in.(io.ReadCloser)
	if !ok {
		rc = io.NopCloser(in)
	}
	// When ctx ends (SIGINT, SIGTERM) the input is closed, so the session
	// ends the way it does when the client goes: calls in flight still
	// record their events, and the shutdown is clean rather than an error.
	input := &closeOnce{ReadCloser: rc}
	stop := context.AfterFunc(ctx, input.shutdown)
	defer stop()
	rc = input
	answers := newEncodedAnswers() // encoded.go
	err := s.mcp.Run(withEncodedAnswers(context.WithoutCancel(ctx), answers), &lineTransport{in: rc, out: out, log: s.log, answers: answers})
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// HTTPHandler serves MCP over Streamable HTTP at the handler's root, in
// every protocol version stdio serves. Up to 2025-11-25 every MCP session
// is one connection and so binds its own agent session; a request outside
// a session that needs one is answered Invalid Request (-32600) with HTTP
// 400. Protocol 2026-07-28 is stateless: each request is served on its
// own (the SDK's stateless mode), and its tool calls name their agent
// session with session_id (sessionarg.go).
func (s *Server) HTTPHandler() http.Handler {
	get := func(*http.Request) *mcp.Server { return s.mcp }
	return byProtocol(
		requireInitialize(mcp.NewStreamableHTTPHandler(get, nil)),
		markStateless(mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: true})))
}

// closeOnce is the input of a stdio session. Its Close closes once (both a
// shutdown and the SDK close it); after shutdown its reads end with io.EOF,
// so the session ends as it does when the client goes.
type closeOnce struct {
	io.ReadCloser
	once sync.Once
	err  error
	shut atomic.Bool
}

func (c *closeOnce) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	if err != nil && c.shut.Load() {
		err = io.EOF
	}
	return n, err
}

func (c *closeOnce) Close() error {
	c.once.Do(func() { c.err = c.ReadCloser.Close() })
	return c.err
}

// shutdown closes the input to end the session.
func (c *closeOnce) shutdown() {
	c.shut.Store(true)
	c.Close()
}

// tool is one of the seven tools: its advertised definition and its body.
type tool struct {
	name   string
	title  string // for people: hosts show it in place of the name
	access access // what its calls change, for the host (annotations.go)
	desc   string
	input  *schema
	output *schema
	typ    events.Type // the event type of its calls when run cannot say (a panic)
	// run does the work of a call. It returns the result and what to record,
	// or an error; e says what to record on failure too (its typ is always
	// set). It reads only the Catalog.
	run func(ctx context.Context, c *call) (result any, e entry, err error)
	// commit, if set, is called after the event of a successful call is
	// recorded (true) or failed to record (false).
	commit func(c *call, recorded bool)
}

func (t *tool) spec() *mcp.Tool {
	in := t.input
	if t.name != "memsetup" {
		in = withSessionArg(in)
	}
	return &mcp.Tool{Name: t.name, Title: t.title, Description: t.desc, InputSchema: in, OutputSchema: t.output,
		Annotations: annotations(t.title, t.access)}
}

// call is one tools/call as a tool sees it.
type call struct {
	conn    *mcp.ServerSession
	raw     json.RawMessage // the arguments as sent
	session string          // the agent session bound to conn, "" before memsetup
	state   any             // what run leaves for commit
	// openWait is how long the call waited for the workspace to open
	// (Config.Ready) before it began; 0 when it was open.
	openWait time.Duration
	// What an observer learns of the request (observe.go).
	meta       map[string]any
	mcpSession string
	protocol   string
	// stateless is set on a call over a connection that keeps no session
	// between requests (HTTP at protocol 2026-07-28).
	stateless bool
	// client is the MCP client, as it named itself; unbound is set when
	// the call's session is not bound to whoever set it up; refused is
	// the refusal of a call that named a bound session without its secret
	// (sessionarg.go).
	client  *mcp.Implementation
	unbound bool
	refused *ToolError
}

// recordTimeout bounds how long a call waits for its event to be recorded.
const recordTimeout = 30 * time.Second

// decideFor bounds how long a call keeps deciding again after other
// writers changed what it decided on (events.ErrConflict). Each retry
// reads the state that beat it, so one more is usually the last; under a
// storm of drafts from many processes a slower writer can lose a few
// dozen times in a row (measured: 36, with five processes creating drafts
// back to back), so the bound is in time, not in attempts.
const decideFor = 5 * time.Second

// handler adapts a tool to the SDK. Every call, failed or not, records
// exactly one event before it answers; a call whose event is not stored
// answers unavailable, and one whose event may yet be stored
// outcome_unknown (see notStored). A call that decided on state (its entry
// has an expectation) is appended only if that state is still current;
// when another writer came first it reads and decides again.
//
// The call runs on a warm stack (warmstack.go).
func (s *Server) handler(t *tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		warmStacks.run(func() { res, err = s.handle(ctx, t, req) })
		return res, err
	}
}

// handle answers one call of t: see handler.
func (s *Server) handle(ctx context.Context, t *tool, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	c := &call{conn: req.Session, raw: req.Params.Arguments, meta: req.Params.Meta, protocol: req.ProtocolVersion(),
		stateless: isStateless(ctx), client: clientOf(req)}
	if req.Session != nil {
		c.mcpSession = req.Session.ID()
	}
	c.openWait = s.waitReady(ctx)
	start := time.Now()
	if err := s.sessionOf(ctx, t, c); err != nil {
		c.refused = classify(err, s.log, t.name)
	}
	for {
		res, ev, err := s.attempt(ctx, t, c, start)
		if decidesAgain(ctx, err, start) {
			continue
		}
		if err != nil {
			// The span says what the agent got.
			fail := notStored(err, s.log, t.name)
			ev.Outcome, ev.ErrorCode = events.OutcomeError, string(fail.Code)
			s.observe(ctx, c, ev, start, false)
			return errorResult(fail), nil
		}
		s.observe(ctx, c, ev, start, true)
		return res, nil
	}
}

// decidesAgain reports whether a call whose attempt ended with err reads
// and decides again: another writer changed what it decided on, and it
// has time left.
func decidesAgain(ctx context.Context, err error, start time.Time) bool {
	return errors.Is(err, events.ErrConflict) && time.Since(start) < decideFor && ctx.Err() == nil
}

// waitReady waits, if the workspace is still opening (Config.Ready), until
// it is open or ctx ends, and returns how long it waited: a call's
// recorded duration is its own, and the wait is recorded apart
// (events.Event.OpenWaitUs), so that the first call after a start does not
// skew the tools' timings.
func (s *Server) waitReady(ctx context.Context) time.Duration {
	r := s.cfg.Ready
	if r == nil {
		return 0
	}
	select {
	case <-r:
		return 0
	default:
	}
	begin := time.Now()
	select {
	case <-r:
	case <-ctx.Done():
	}
	return max(time.Since(begin), time.Microsecond)
}

// attempt runs one decision of a call and records it, returning the
// answer and the event. It returns an error only when the event could not
// be recorded: ErrConflict when the state the call decided on changed
// meanwhile (nothing was stored).
func (s *Server) attempt(ctx context.Context, t *tool, c *call, start time.Time) (*mcp.CallToolResult, events.Event, error) {
	result, e, fail := s.run(ctx, t, c)
	var ans resultBytes
	if fail == nil {
		var err error
		if ans, err = encodeAnswer(ctx, result, c.protocol); err != nil {
			fail = classify(fmt.Errorf("encode %s result: %w", t.name, err), s.log, t.name)
		}
	}
	if e.typ == "" {
		e.typ = t.typ
	}
	if e.sessionID == "" {
		e.sessionID = c.session
	}
	took := time.Since(start)
	ev, fail := s.newEvent(t.name, e, c.raw, fail, took)
	ev, fail = s.fitEvent(ev, c.raw, fail, took)
	ev.OpenWaitUs = c.openWait.Microseconds()
	conn := c.conn
	if c.stateless {
		conn = nil // each request is a connection of its own: no id says more
	}
	s.stamp(&ev, conn, c.client, c.unbound)
	// The call happened: record it even if the client has given up on the
	// answer (a cancelled request still leaves its event).
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	var err error
	if e.expect != nil && fail == nil {
		err = s.cfg.Ledger.RecordExpecting(rctx, ev, *e.expect)
	} else {
		err = s.cfg.Ledger.Record(rctx, ev)
	}
	cancel()
	if t.commit != nil && fail == nil {
		t.commit(c, err == nil)
	}
	switch {
	case err != nil:
		return nil, ev, fmt.Errorf("record %s %s: %w", ev.Type, ev.ID, err)
	case fail != nil:
		return errorResult(fail), ev, nil
	}
	return successResult(ctx, ans), ev, nil
}

// run calls t.run, turning a panic or a non-ToolError into an internal
// error.
func (s *Server) run(ctx context.Context, t *tool, c *call) (result any, e entry, fail *ToolError) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("tool call panicked", "tool", t.name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			result, fail = nil, toolErr(events.CodeInternal, msgInternal)
		}
	}()
	if fail := checkArgs(c.raw); fail != nil {
		return nil, e, fail
	}
	result, e, err := t.run(ctx, c)
	if err != nil {
		return nil, e, classify(err, s.log, t.name)
	}
	return result, e, nil
}

// errorResult is a failed call's answer: the payload as structuredContent
// and, for clients that read only content, the same JSON as text.
func errorResult(e *ToolError) *mcp.CallToolResult {
	p := e.payload()
	return &mcp.CallToolResult{
		IsError:           true,
		StructuredContent: p,
		Content:           []mcp.Content{&mcp.TextContent{Text: string(p)}},
	}
}

// minLevel is a slog.Handler that drops records below a level, and the
// SDK's report of a stdio session's error (see sessionEnded).
type minLevel struct {
	min slog.Level
	h   slog.Handler
}

func (m minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= m.min && m.h.Enabled(ctx, l)
}

// sessionEnded is what the SDK logs when a stdio session ends with an
// error, which ServeStdio also returns: its caller reports it, once.
const sessionEnded = "server session ended with error"

func (m minLevel) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == sessionEnded {
		return nil
	}
	return m.h.Handle(ctx, r)
}
func (m minLevel) WithAttrs(a []slog.Attr) slog.Handler { return minLevel{m.min, m.h.WithAttrs(a)} }
func (m minLevel) WithGroup(g string) slog.Handler      { return minLevel{m.min, m.h.WithGroup(g)} }

// toolset returns the seven tools (tools/list sorts them by name).
func (s *Server) toolset() []*tool {
	return []*tool{
		s.setupTool(),
		s.discoverTool(),
		s.loadTool(),
		s.referTool(),
		s.reportTool(),
		s.rejectTool(),
		s.artifactTool(),
	}
}

// unknownToolMiddleware answers a call of a tool this server does not have
// with the JSON-RPC error the protocol names ("Unknown tool: <name>"); no
// event is recorded for it.
func (s *Server) unknownToolMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && !slices.ContainsFunc(s.tools, func(t *tool) bool { return t.name == r.Params.Name }) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Unknown tool: " + r.Params.Name}
		}
		return next(ctx, method, req)
	}
}

func (s *Server) version() string {
	if s.cfg.Version == "" {
		return "dev"
	}
	return s.cfg.Version
}
