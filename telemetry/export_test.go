package telemetry_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clumsies/clumsies/internal/otelcoltest"
	"github.com/clumsies/clumsies/internal/testbin"
)

// A host's trace context, as a host puts it in params._meta.
const (
	hostTrace  = "4bf92f3577b34da6a3ce929d0e0e4736"
	hostSpan   = "00f067aa0ba902b7"
	hostParent = "00-" + hostTrace + "-" + hostSpan + "-01"
)

// ruleBody is a line of the rule init writes: the export must never
// carry it.
const ruleBody = "Return errors to the caller instead of logging"

// TestExport_Collector runs `clumsies serve` with [otel] pointing at a
// real OpenTelemetry Collector over OTLP/HTTP, drives an
// agent session through it, and checks what the collector received: a
// span per tool call with the MCP and GenAI attributes, the memload that
// carried the host's traceparent as a child of the host's span, the
// failed call marked as an error with its code, rule ids but no rule
// body, and the usage counters as metrics.
func TestExport_Collector(t *testing.T) {
	col := otelcoltest.Start(t)
	session := "otel-http"
	dir := workspaceWith(t, fmt.Sprintf("\n[otel]\nendpoint = %q\nprotocol = \"http\"\n", col.HTTP))
	ruleID := agentSession(t, dir, session)
	got := col.Wait(t, 2*time.Minute, func(r otelcoltest.Received) bool {
		return len(sessionSpans(r, session)) == 5 && hasPoint(r, "clumsies.tool.calls", session)
	})
	checkSpans(t, sessionSpans(got, session), ruleID)
	if strings.Contains(string(got.Raw), ruleBody) {
		t.Errorf("the export carries the rule's body (%q)", ruleBody)
	}
	checkMetrics(t, got, ruleID)
}

// TestExport_GRPCRefused checks that serve turns off an [otel] table
// asking for OTLP/gRPC, which it does not link, and says what to set
// instead, while it serves on (a mistake in an optional table never takes
// the MCP server down).
func TestExport_GRPCRefused(t *testing.T) {
	dir := workspaceWith(t, "\n[otel]\nendpoint = \"http://127.0.0.1:4317\"\nprotocol = \"grpc\"\n")
	cmd := exec.Command(clumsies(t), "serve", "--workspace", dir)
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("serve with protocol = \"grpc\": %v, want it to serve with [otel] off:\n%s", err, out)
	}
	for _, want := range []string{"[otel] in config.toml is off", `protocol = "http"`, "4318", "OTLP/HTTP only"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("serve does not say %q:\n%s", want, out)
		}
	}
}

// TestExport_NoCollector checks that a collector that is not there
// neither fails nor holds up the tool calls, and that serve still stops.
func TestExport_NoCollector(t *testing.T) {
	dir := workspaceWith(t, "\n[otel]\nendpoint = \"http://127.0.0.1:1\"\n")
	agentSession(t, dir, "otel-nobody")
}

// workspaceWith makes a workspace whose config.toml ends with extra.
func workspaceWith(t *testing.T, extra string) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(clumsies(t), "init")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("clumsies init: %v\n%s", err, out)
	}
	cfg := filepath.Join(dir, ".clumsies", "config.toml")
	f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(extra); err != nil {
		t.Fatal(err)
	}
	return dir
}

// agentSession runs serve over stdio in dir and makes five calls as an
// agent would: memsetup, memdisc, memload of the error-handling rule
// with the host's trace context in _meta, a memload of an unknown id
// (an error) and a memref. It returns the rule's id once serve has
// stopped.
func agentSession(t *testing.T, dir, session string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(clumsies(t), "serve", "--workspace", dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cl := sdk.NewClient(&sdk.Implementation{Name: "otel-test", Version: "1"}, nil)
	cs, err := cl.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to serve: %v", err)
	}
	call := func(tool string, args map[string]any, meta sdk.Meta, wantError bool) map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args, Meta: meta})
		if err != nil || res.IsError != wantError {
			t.Fatalf("call %s: %v %+v (want isError %v)\nserve: %s", tool, err, res, wantError, stderr.String())
		}
		m, _ := res.StructuredContent.(map[string]any)
		return m
	}
	call("memsetup", map[string]any{"session_id": session, "knownHashes": map[string]any{"META_PROMPT.md": ""}}, nil, false)
	var ruleID string
	for _, it := range call("memdisc", map[string]any{}, nil, false)["items"].([]any) {
		if m := it.(map[string]any); m["kind"] == "rule" {
			ruleID = fmt.Sprint(m["id"])
		}
	}
	loaded := call("memload", map[string]any{"ids": []string{ruleID}, "knownHashes": map[string]any{ruleID: ""}}, sdk.Meta{"traceparent": hostParent, "tracestate": "host=1"}, false)
	item := loaded["items"].([]any)[0].(map[string]any)
	constraint := fmt.Sprint(item["constraints"].([]any)[0].(map[string]any)["id"])
	call("memload", map[string]any{"ids": []string{"no-such-rule"}, "knownHashes": map[string]any{"no-such-rule": ""}}, nil, true)
	call("memref", map[string]any{"refs": []any{map[string]any{"ruleId": ruleID, "constraintId": constraint, "reason": "wrapped the error"}}}, nil, false)
	// Closing stdin ends serve, which sends what it has left.
	if err := cs.Close(); err != nil {
		t.Fatalf("close the session: %v\nserve: %s", err, stderr.String())
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Fatalf("serve did not exit cleanly: %v\n%s", cmd.ProcessState, stderr.String())
	}
	return ruleID
}

// sessionSpans returns the spans of one agent session.
func sessionSpans(r otelcoltest.Received, session string) []otelcoltest.Span {
	var out []otelcoltest.Span
	for _, s := range r.Spans {
		if s.Attrs["clumsies.session.id"] == session {
			out = append(out, s)
		}
	}
	return out
}

func checkSpans(t *testing.T, spans []otelcoltest.Span, ruleID string) {
	t.Helper()
	var tools []string
	for _, s := range spans {
		tool, _ := s.Attrs["gen_ai.tool.name"].(string)
		tools = append(tools, tool)
		if s.Name != "tools/call "+tool || s.Kind != 2 || s.Attrs["mcp.method.name"] != "tools/call" || s.Attrs["gen_ai.operation.name"] != "execute_tool" {
			t.Errorf("span %q (kind %d): not an MCP server span of a tool call: %v", s.Name, s.Kind, s.Attrs)
		}
		if s.Resource["service.name"] != "clumsies" || !strings.HasPrefix(fmt.Sprint(s.Resource["clumsies.workspace.id"]), "ws-") {
			t.Errorf("span %q: resource %v", s.Name, s.Resource)
		}
		if id, _ := s.Attrs["clumsies.event.id"].(string); id == "" {
			t.Errorf("span %q names no event", s.Name)
		}
		rules, _ := s.Attrs["clumsies.rule.ids"].([]any)
		switch {
		case tool == "memload" && s.StatusCode == 2:
			if s.Attrs["error.type"] != "tool_error" || s.Attrs["clumsies.error.code"] != "unknown_rule" || s.StatusMessage != "unknown_rule" {
				t.Errorf("failed memload: status %d %q, attributes %v", s.StatusCode, s.StatusMessage, s.Attrs)
			}
		case tool == "memload":
			if s.TraceID != hostTrace || s.ParentSpanID != hostSpan {
				t.Errorf("memload with the host's traceparent: trace %s parent %s, want %s %s", s.TraceID, s.ParentSpanID, hostTrace, hostSpan)
			}
			if !slices.Equal(rules, []any{ruleID}) {
				t.Errorf("memload: rule ids %v, want [%s]", rules, ruleID)
			}
		case tool == "memref":
			if !slices.Equal(rules, []any{ruleID}) || s.Attrs["clumsies.constraint.ids"] == nil {
				t.Errorf("memref: rule ids %v, constraints %v", rules, s.Attrs["clumsies.constraint.ids"])
			}
		}
		if tool != "memload" || s.StatusCode == 2 {
			if s.TraceID == hostTrace || s.ParentSpanID != "" {
				t.Errorf("span %q without trace context joined trace %s (parent %q)", s.Name, s.TraceID, s.ParentSpanID)
			}
			if s.StatusCode == 2 && tool != "memload" {
				t.Errorf("span %q is an error: %q", s.Name, s.StatusMessage)
			}
		}
	}
	slices.Sort(tools)
	if want := []string{"memdisc", "memload", "memload", "memref", "memsetup"}; !slices.Equal(tools, want) {
		t.Errorf("spans of tools %v, want %v", tools, want)
	}
}

func checkMetrics(t *testing.T, r otelcoltest.Received, ruleID string) {
	t.Helper()
	for _, want := range []struct {
		metric string
		attrs  map[string]any
	}{
		{"clumsies.tool.calls", map[string]any{"gen_ai.tool.name": "memload", "clumsies.outcome": "ok"}},
		{"clumsies.tool.calls", map[string]any{"gen_ai.tool.name": "memload", "clumsies.outcome": "error"}},
		{"mcp.server.operation.duration", map[string]any{"gen_ai.tool.name": "memref", "mcp.method.name": "tools/call"}},
		{"clumsies.rule.loads", map[string]any{"clumsies.rule.id": ruleID}},
		{"clumsies.rule.refs", map[string]any{"clumsies.rule.id": ruleID}},
	} {
		if !slices.ContainsFunc(r.Points, func(p otelcoltest.Point) bool {
			return p.Metric == want.metric && p.Value >= 1 && matches(p.Attrs, want.attrs)
		}) {
			t.Errorf("no point of %s ≥ 1 with %v; points: %v", want.metric, want.attrs, r.Points)
		}
	}
	if !slices.ContainsFunc(r.Points, func(p otelcoltest.Point) bool { return p.Metric == "clumsies.telemetry.dropped" && p.Value == 0 }) {
		t.Errorf("no clumsies.telemetry.dropped of 0")
	}
}

// hasPoint reports whether r holds a point of metric exported by the
// process that served session: its export comes after the session's
// spans, at shutdown.
func hasPoint(r otelcoltest.Received, metric, session string) bool {
	return len(sessionSpans(r, session)) > 0 && slices.ContainsFunc(r.Points, func(p otelcoltest.Point) bool { return p.Metric == metric })
}

func matches(got, want map[string]any) bool {
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// clumsies builds the binary once for the package's tests.
func clumsies(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "clumsies-telemetry-")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "clumsies")
		buildErr = testbin.Build(binary, "../cmd/clumsies")
	})
	if buildErr != nil {
		t.Fatalf("build clumsies: %v", buildErr)
	}
	return binary
}
