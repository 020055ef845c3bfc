package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listTools returns the tools as a client sees them.
func listTools(tb testing.TB, c *Client) map[string]*mcp.Tool {
	tb.Helper()
	out := map[string]*mcp.Tool{}
	for t, err := range c.cs.Tools(context.Background(), nil) {
		if err != nil {
			tb.Fatal(err)
		}
		out[t.Name] = t
	}
	return out
}

// asMap returns a schema as decoded JSON.
func asMap(tb testing.TB, s any) map[string]any {
	tb.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		tb.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatal(err)
	}
	return m
}

// resolve compiles a schema a client was given.
func resolve(tb testing.TB, s any) *jsonschema.Resolved {
	tb.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		tb.Fatal(err)
	}
	var js jsonschema.Schema
	if err := json.Unmarshal(b, &js); err != nil {
		tb.Fatalf("schema does not decode: %v\n%s", err, b)
	}
	r, err := js.Resolve(nil)
	if err != nil {
		tb.Fatalf("schema does not resolve: %v\n%s", err, b)
	}
	return r
}

func TestTools_Exact(t *testing.T) {
	e := newEnv(t, envOptions{})
	c := e.connect()
	got, err := c.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"agentrejected", "agentreport", "artifact", "memdisc", "memload", "memref", "memsetup"}
	if !slices.Equal(got, want) { // the SDK lists tools sorted by name
		t.Fatalf("got tools %v, want %v", got, want)
	}
	for _, name := range got {
		for _, gone := range []string{"memory.begin", "memory.complete", "memory.startup", "memory.list", "memory.activate"} {
			if name == gone {
				t.Errorf("tools/list contains the retired tool %s", name)
			}
		}
		if strings.HasPrefix(name, "context.propose_") || strings.HasPrefix(name, "rule.propose_") || strings.Contains(name, "draft") {
			t.Errorf("tools/list contains %s; drafts go through artifact only", name)
		}
	}
}

func TestErrorCodes(t *testing.T) {
	got := events.Codes()
	want := []events.Code{
		"draft_exists", "incompatible_draft", "internal", "invalid_params", "invalid_target_kind",
		"not_found", "outcome_unknown", "read_only", "session_conflict", "session_required", "stale_rule_hash",
		"unavailable", "unknown_constraint", "unknown_rule", "unknown_rule_or_workflow", "unsafe_path",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got codes %v, want %v (changing the set is a change to PROTOCOL.md)", got, want)
	}
	mapped := slices.Sorted(maps.Keys(codes))
	if !slices.Equal(mapped, got) {
		t.Errorf("the MCP layer maps codes %v, want exactly events.Codes() %v", mapped, got)
	}
	t.Run("UnknownCodePanics", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Fatal("toolErr accepted a code outside the set")
			}
		}()
		toolErr("nope", "x")
	})
}

// mapFields are the input objects whose keys are data, not names: their
// additionalProperties is the schema of the values.
var mapFields = map[string]bool{"memload.knownHashes": true}

func TestSchemas_ClosedInputObjects(t *testing.T) {
	e := newEnv(t, envOptions{})
	tools := listTools(t, e.connect())
	for name, tool := range tools {
		objects := 0
		walkSchema(asMap(t, tool.InputSchema), name, func(path string, s map[string]any) {
			if s["type"] != "object" {
				return
			}
			objects++
			ap, ok := s["additionalProperties"]
			switch {
			case mapFields[path]:
				if m, isMap := ap.(map[string]any); !isMap || m["type"] != "string" {
					t.Errorf("%s: a map of hashes needs additionalProperties {type: string}, got %v", path, ap)
				}
			case !ok || ap != false:
				t.Errorf("%s: got additionalProperties %v, want false", path, ap)
			}
		})
		if objects == 0 {
			t.Errorf("%s: no input object found", name)
		}
		resolve(t, tool.InputSchema)
	}
}

// walkSchema calls fn for s and every schema nested in it, with a path of
// property names.
func walkSchema(s map[string]any, path string, fn func(string, map[string]any)) {
	fn(path, s)
	if props, ok := s["properties"].(map[string]any); ok {
		for k, v := range props {
			if m, ok := v.(map[string]any); ok {
				walkSchema(m, path+"."+k, fn)
			}
		}
	}
	for _, k := range []string{"items", "additionalProperties"} {
		if m, ok := s[k].(map[string]any); ok {
			walkSchema(m, path+"[]", fn)
		}
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		if list, ok := s[k].([]any); ok {
			for _, v := range list {
				if m, ok := v.(map[string]any); ok {
					walkSchema(m, path, fn)
				}
			}
		}
	}
}

func TestSchemas_EveryInputFieldDescribed(t *testing.T) {
	e := newEnv(t, envOptions{})
	for name, tool := range listTools(t, e.connect()) {
		if tool.Description == "" {
			t.Errorf("%s has no description", name)
		}
		walkSchema(asMap(t, tool.InputSchema), name, func(path string, s map[string]any) {
			if path != name && !strings.HasSuffix(path, "[]") && s["description"] == nil {
				t.Errorf("%s has no description", path)
			}
		})
	}
}

func TestSchemas_Guidance(t *testing.T) {
	e := newEnv(t, envOptions{})
	tools := listTools(t, e.connect())
	field := func(tool string, path ...string) string {
		s := asMap(t, tools[tool].InputSchema)
		for _, p := range path {
			if p == "[]" {
				s, _ = s["items"].(map[string]any)
				continue
			}
			props, _ := s["properties"].(map[string]any)
			s, _ = props[p].(map[string]any)
		}
		d, _ := s["description"].(string)
		return d
	}
	for _, c := range []struct {
		what, text string
		want       []string
	}{
		{"memsetup session_id", field("memsetup", "session_id"), []string{"real session or thread id", "host", "never invent"}},
		{"memsetup knownHashes", field("memsetup", "knownHashes"), []string{"META_PROMPT.md", `""`}},
		{"memload knownHashes", field("memload", "knownHashes"), []string{"EVERY id", `pass ""`}},
		{"memref constraintId", field("memref", "refs", "[]", "constraintId"), []string{"Copy exactly", "constraints[].id", "memload", "Never invent"}},
		{"memref ruleId", field("memref", "refs", "[]", "ruleId"), []string{"memload", "Not a context id"}},
		{"memref tool", tools["memref"].Description, []string{"ONE call", "end of the turn"}},
		{"artifact op", field("artifact", "op"), []string{"exactly one key"}},
		{"instructions", protocolSummary, []string{"memsetup", "real session or thread id", "memdisc", "memload", "memref", "artifact", "agentreport"}},
	} {
		for _, w := range c.want {
			mustContain(t, c.text, w, c.what)
		}
	}
}

// samplePayloads returns an error payload of every code, with every
// code-specific field.
func samplePayloads() []json.RawMessage {
	var out []json.RawMessage
	for _, code := range events.Codes() {
		e := toolErr(code, "something about %s", code)
		e.with("field", "refs[0].constraintId").with("index", 0).with("currentHash", "sha256:00").
			with("existingId", "p-1").with("validConstraints", []validConstraint{{ID: "Steps/1", Name: "Steps", Text: "Do it."}})
		out = append(out, e.payload())
	}
	return out
}

func TestOutputSchemas_AdmitErrorPayloads(t *testing.T) {
	e := newEnv(t, envOptions{})
	for name, tool := range listTools(t, e.connect()) {
		if tool.OutputSchema == nil {
			t.Errorf("%s has no outputSchema", name)
			continue
		}
		if s := asMap(t, tool.OutputSchema); s["type"] != "object" {
			t.Errorf("%s: outputSchema type %v, want object", name, s["type"])
		}
		r := resolve(t, tool.OutputSchema)
		for _, p := range samplePayloads() {
			var v any
			if err := json.Unmarshal(p, &v); err != nil {
				t.Fatal(err)
			}
			if err := r.Validate(v); err != nil {
				t.Errorf("%s: outputSchema rejects the error payload %s: %v", name, p, err)
			}
		}
	}
}

// TestOutputSchemas_RequireAnAnswer checks that an output schema says what
// an answer carries: an empty object is neither a result nor an error
// payload, and neither is half an error payload. (Every answer of the golden
// transcripts is validated against its tool's schema in TestGolden.)
func TestOutputSchemas_RequireAnAnswer(t *testing.T) {
	e := newEnv(t, envOptions{})
	_, out := toolSchemas(t, e.connect())
	if len(out) != 7 {
		t.Fatalf("got %d tools, want 7", len(out))
	}
	for name, r := range out {
		for _, v := range []string{`{}`, `{"code": "internal"}`, `{"error": "x", "code": "internal"}`} {
			if err := validateJSON(r, []byte(v)); err == nil {
				t.Errorf("%s: outputSchema accepts %s", name, v)
			}
		}
	}
}

func TestErrorPayload(t *testing.T) {
	e := toolErr(events.CodeUnknownConstraint, "bad").with("index", 2).with("code", "overridden?")
	got := string(e.payload())
	want := `{"error":"bad","code":"unknown_constraint","retryable":true,"retryAction":"retry_with_valid_constraint","index":2}`
	if got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if got := string(toolErr(events.CodeSessionConflict, "x").payload()); !strings.Contains(got, `"retryable":false`) || strings.Contains(got, "retryAction") {
		t.Fatalf("session_conflict payload %s: want retryable false and no retryAction", got)
	}
	for _, code := range events.Codes() {
		p := toolErr(code, "m").payload()
		var m map[string]any
		if err := json.Unmarshal(p, &m); err != nil {
			t.Fatalf("%s: payload %s: %v", code, p, err)
		}
		if m["code"] != string(code) || m["error"] != "m" || m["retryable"] == nil {
			t.Errorf("%s: payload %s lacks error, code or retryable", code, p)
		}
	}
}

// toolSchemas returns each tool's resolved input and output schemas.
func toolSchemas(tb testing.TB, c *Client) (in, out map[string]*jsonschema.Resolved) {
	tb.Helper()
	in, out = map[string]*jsonschema.Resolved{}, map[string]*jsonschema.Resolved{}
	for name, t := range listTools(tb, c) {
		in[name], out[name] = resolve(tb, t.InputSchema), resolve(tb, t.OutputSchema)
	}
	return in, out
}

// validateJSON validates raw JSON against r.
func validateJSON(r *jsonschema.Resolved, raw []byte) error {
	var v any
	if len(raw) == 0 {
		v = map[string]any{}
	} else if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return r.Validate(v)
}
