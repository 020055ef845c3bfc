package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"golang.org/x/tools/txtar"

	"github.com/clumsies/clumsies/events"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata")

// TestGolden replays the transcripts in testdata/*.txtar. A transcript's
// comment says what it shows; "option: readonly" and "option:
// separate-catalog" lines configure the server. Its files are, in order:
//
//	-- content/<source path> --   published before the session starts
//	-- call <tool> --             the arguments of a call, sent as they are
//	-- prompts/list --            list the prompts (the workflows)
//	-- prompts/get <name> --      get a prompt; its want holds the events it recorded
//	-- want <tool> --             the answer and the event it recorded
//	-- publish <source path> --   publish (a new version of) a file mid-session
//	-- submit <draft id> --       hand a draft to review (attest.draft.submit)
//	-- decline <draft id> --      decline a draft, with the file's text as reason (attest.draft.decline)
//	-- close ledger --            make every later Record fail
//	-- close catalog --           close the store the server reads
//
// With -update the want files are rewritten from what the server answered.
// Every call is checked to record exactly one event whose outcome and error
// code match the answer, and to send the same JSON as text and as
// structuredContent (memdisc: its listing of it as text).
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no transcripts in testdata")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runTranscript(t, file)
		})
	}
}

func runTranscript(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var opts envOptions
	for line := range strings.SplitSeq(string(ar.Comment), "\n") {
		switch strings.TrimSpace(line) {
		case "option: readonly":
			opts.readOnly = true
		case "option: separate-catalog":
			opts.separateCatalog = true
		}
	}
	e := newEnv(t, opts)
	for _, f := range ar.Files {
		if src, ok := strings.CutPrefix(f.Name, "content/"); ok {
			e.publish(src, string(f.Data))
		}
	}
	c := e.connect()
	in, outSchemas := toolSchemas(t, c)
	ctx := context.Background()
	var out []txtar.File // the transcript as it should read
	for i := 0; i < len(ar.Files); i++ {
		f := ar.Files[i]
		out = append(out, f)
		verb, arg, _ := strings.Cut(f.Name, " ")
		switch {
		case strings.HasPrefix(f.Name, "content/"):
		case verb == "call":
			got := e.transcriptCall(ctx, c, arg, f.Data)
			checkSchemas(t, arg, f.Data, got, in[arg], outSchemas[arg])
			if i+1 < len(ar.Files) && ar.Files[i+1].Name == "want "+arg {
				i++
				if want := ar.Files[i].Data; !bytes.Equal(got, want) && !*update {
					t.Errorf("%s: call %s (section %d):\ngot:\n%s\nwant:\n%s", file, arg, i, got, want)
				}
			} else if !*update {
				t.Errorf("%s: call %s (section %d) has no want %s after it", file, arg, i, arg)
			}
			out = append(out, txtar.File{Name: "want " + arg, Data: got})
		case verb == "prompts/list" || verb == "prompts/get":
			got := e.transcriptPrompt(ctx, c, verb, arg)
			if i+1 < len(ar.Files) && ar.Files[i+1].Name == "want "+verb {
				i++
				if want := ar.Files[i].Data; !bytes.Equal(got, want) && !*update {
					t.Errorf("%s: %s (section %d):\ngot:\n%s\nwant:\n%s", file, f.Name, i, got, want)
				}
			} else if !*update {
				t.Errorf("%s: %s (section %d) has no want %s after it", file, f.Name, i, verb)
			}
			out = append(out, txtar.File{Name: "want " + verb, Data: got})
		case verb == "want":
			t.Fatalf("%s: want %s (section %d) follows no call %s", file, arg, i, arg)
		case verb == "publish":
			e.publish(arg, string(f.Data))
		case verb == "submit":
			e.append(events.TypeDraftSubmit, events.ReviewData{DraftID: arg})
		case verb == "decline":
			e.append(events.TypeDraftDecline, events.ReviewData{DraftID: arg, Reviewer: "ann", Reason: strings.TrimSpace(string(f.Data))})
		case f.Name == "close ledger":
			e.ledger.closed.Store(true)
		case f.Name == "close catalog":
			if !opts.separateCatalog {
				t.Fatalf("%s: close catalog needs option: separate-catalog", file)
			}
			if err := e.catalog.Close(); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("%s: unknown section %q", file, f.Name)
		}
	}
	if *update {
		ar.Files = out
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// transcriptCall makes one call with raw arguments and returns the want
// text: the answer and the event it recorded, normalised.
func (e *env) transcriptCall(ctx context.Context, c *Client, tool string, args []byte) []byte {
	t := e.tb
	t.Helper()
	before := len(e.events())
	params := &mcp.CallToolParams{Name: tool}
	if a := bytes.TrimSpace(args); len(a) > 0 {
		params.Arguments = json.RawMessage(a)
	}
	res, err := c.cs.CallTool(ctx, params)
	evs := e.events()[before:]
	if err != nil {
		if len(evs) != 0 {
			t.Errorf("%s: a protocol error recorded %d events, want 0", tool, len(evs))
		}
		return append([]byte(jsonOf(t, map[string]any{"rpcError": err.Error()})), '\n')
	}
	var structured map[string]any
	text := ""
	if len(res.Content) == 1 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &structured); err != nil {
		t.Fatalf("%s: structuredContent is not an object: %s", tool, b)
	}
	if tool == "memdisc" && !res.IsError {
		// The client has structuredContent: the text is written for the
		// model (TestStdio_AnswersEncodedOnce has the older protocols).
		if want := listingOf(t, structured); text != want {
			t.Errorf("%s: text content %q is not the listing %q of the structured content %s", tool, text, want, b)
		}
	} else {
		var fromText map[string]any
		if err := json.Unmarshal([]byte(text), &fromText); err != nil || jsonOf(t, fromText) != jsonOf(t, structured) {
			t.Errorf("%s: text content %q is not the structured content %s", tool, text, b)
		}
	}
	want := struct {
		IsError bool           `json:"isError"`
		Result  map[string]any `json:"result"`
		Event   map[string]any `json:"event"`
	}{IsError: res.IsError, Result: structured}
	if sec, ok := structured["sessionSecret"].(string); ok {
		if !secretRE.MatchString(sec) {
			t.Errorf("%s: sessionSecret %q is not css- and 32 hex digits", tool, sec)
		}
		structured["sessionSecret"] = "<SECRET>"
	}
	switch {
	case structured["code"] == string(events.CodeUnavailable):
		if len(evs) != 0 {
			t.Errorf("%s: unavailable, yet %d events were stored", tool, len(evs))
		}
	case len(evs) != 1:
		t.Fatalf("%s: recorded %d events, want exactly 1", tool, len(evs))
	default:
		ev := evs[0]
		checkOutcome(t, tool, ev, res.IsError, structured)
		want.Event = normalizeEvent(t, ev)
	}
	return append([]byte(jsonOf(t, want)), '\n')
}

// checkOutcome checks that an event says what the answer said.
func checkOutcome(tb testing.TB, tool string, ev events.Event, isError bool, res map[string]any) {
	tb.Helper()
	if ev.Tool != tool {
		tb.Errorf("%s: event tool %q", tool, ev.Tool)
	}
	wantOutcome, wantCode := events.OutcomeOK, ""
	if isError {
		wantOutcome, wantCode = events.OutcomeError, fmt.Sprint(res["code"])
	}
	if ev.Outcome != wantOutcome || ev.ErrorCode != wantCode {
		tb.Errorf("%s: event outcome %s/%q, want %s/%q", tool, ev.Outcome, ev.ErrorCode, wantOutcome, wantCode)
	}
}

// normalizeEvent returns ev as JSON with its volatile fields (id, time,
// duration) checked and replaced by placeholders.
func normalizeEvent(tb testing.TB, ev events.Event) map[string]any {
	tb.Helper()
	if !events.ValidID(ev.ID) {
		tb.Errorf("event id %q is not a ULID", ev.ID)
	}
	if _, err := time.Parse(events.TimeLayout, ev.Time); err != nil {
		tb.Errorf("event time %q: %v", ev.Time, err)
	}
	if ev.DurationUs < 0 {
		tb.Errorf("event duration %d", ev.DurationUs)
	}
	ev.Seq = 0
	b, err := events.Encode(ev)
	if err != nil {
		tb.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatal(err)
	}
	m["id"], m["time"], m["durationUs"] = "<ULID>", "<TIME>", "<DURATION>"
	if conn, ok := m["conn"].(string); ok {
		if !connRE.MatchString(conn) {
			tb.Errorf("event conn %q is not c- and 16 hex digits", conn)
		}
		m["conn"] = "<CONN>"
	}
	if data, ok := m["data"].(map[string]any); ok {
		if h, ok := data["secretHash"].(string); ok {
			if !strings.HasPrefix(h, "sha256:") || len(h) != len("sha256:")+64 {
				tb.Errorf("event secretHash %q is not a sha256 hash", h)
			}
			data["secretHash"] = "<SECRET_HASH>"
		}
	}
	return m
}

// The volatile values of a session's binding.
var (
	secretRE = regexp.MustCompile(`^css-[0-9a-f]{32}$`)
	connRE   = regexp.MustCompile(`^c-[0-9a-f]{16}$`)
)

// checkSchemas checks an answer against the tool's advertised output
// schema (errors included, as strict clients do) and, when the call
// succeeded, its arguments against the input schema: the decoder must not
// accept what the schema forbids.
func checkSchemas(tb testing.TB, tool string, args, got []byte, in, out *jsonschema.Resolved) {
	tb.Helper()
	if in == nil {
		return // an unknown tool
	}
	var want struct {
		IsError bool            `json:"isError"`
		Result  json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(got, &want); err != nil {
		tb.Fatal(err)
	}
	if err := validateJSON(out, want.Result); err != nil {
		tb.Errorf("%s: the answer does not match the outputSchema: %v\n%s", tool, err, want.Result)
	}
	if !want.IsError {
		if err := validateJSON(in, bytes.TrimSpace(args)); err != nil {
			tb.Errorf("%s: accepted arguments that the inputSchema rejects: %v\n%s", tool, err, args)
		}
	}
}

// transcriptPrompt makes a prompts/list or prompts/get (of name) and
// returns the want text: the answer, or the protocol error, and the events
// it recorded, normalised.
func (e *env) transcriptPrompt(ctx context.Context, c *Client, method, name string) []byte {
	t := e.tb
	t.Helper()
	before := len(e.events())
	var res any
	var err error
	if method == "prompts/list" {
		res, err = c.cs.ListPrompts(ctx, nil)
	} else {
		res, err = c.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name})
	}
	want := struct {
		Result   any              `json:"result,omitempty"`
		RPCError string           `json:"rpcError,omitempty"`
		Events   []map[string]any `json:"events"`
	}{Events: []map[string]any{}}
	if err != nil {
		want.RPCError = err.Error()
	} else {
		want.Result = res
	}
	for _, ev := range e.events()[before:] {
		want.Events = append(want.Events, normalizeEvent(t, ev))
	}
	return append([]byte(jsonOf(t, want)), '\n')
}
