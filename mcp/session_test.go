package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The content most tests publish.
const (
	metaPrompt = "# Frame\n\nDiscover, load, apply, refer, refine, submit.\n"
	codingBody = "# Coding\n\n## Steps\n\n1. Read the issue.\n2. Write a failing test.\n"
	errorsBody = "# Errors\n\n## Wrap with context\n\nWrap errors.\n"
	ctxBody    = "# Architecture\n\nCSV in, Parquet out.\n"
)

// seed publishes the usual content and returns the ids of the workflow, the
// rule and the context file.
func (e *env) seed() (workflow, rule, ctx string) {
	e.publish("META_PROMPT.md", metaPrompt)
	return e.publish("rules/workflow/CODING.md", codingBody),
		e.publish("rules/go/ERRORS.md", errorsBody),
		e.publish("context/arch/overview.md", ctxBody)
}

// callLog records what a test's calls answered, to compare with the ledger.
type callLog struct {
	tb    testing.TB
	c     *Client
	calls []answer
}

type answer struct {
	tool    string
	isError bool
	code    string
}

func (l *callLog) call(tool string, args any) map[string]any {
	l.tb.Helper()
	res, isErr := callTool(l.tb, l.c, tool, args)
	code, _ := res["code"].(string)
	l.calls = append(l.calls, answer{tool, isErr, code})
	return res
}

func (l *callLog) ok(tool string, args any) map[string]any {
	l.tb.Helper()
	res := l.call(tool, args)
	if l.calls[len(l.calls)-1].isError {
		l.tb.Fatalf("%s: got error %v, want success", tool, res)
	}
	return res
}

func (l *callLog) fail(tool string, args any, code events.Code) map[string]any {
	l.tb.Helper()
	res := l.call(tool, args)
	if a := l.calls[len(l.calls)-1]; !a.isError || a.code != string(code) {
		l.tb.Fatalf("%s: got %v, want error %s", tool, res, code)
	}
	return res
}

// checkLedger checks that the log holds exactly one event per call, in
// order, each saying what the call answered.
func (l *callLog) checkLedger(e *env, session string) {
	l.tb.Helper()
	evs := e.toolEvents()
	if len(evs) != len(l.calls) {
		l.tb.Fatalf("got %d tool events for %d calls, want one per call", len(evs), len(l.calls))
	}
	for i, a := range l.calls {
		ev := evs[i]
		checkOutcome(l.tb, a.tool, ev, a.isError, map[string]any{"code": a.code})
		if ev.WorkspaceID != testWorkspace {
			l.tb.Errorf("event %d: workspace %q", i, ev.WorkspaceID)
		}
		// A failed memsetup records the id it was given, when valid.
		if ev.SessionID != session && a.code != string(events.CodeSessionRequired) && !(a.tool == "memsetup" && a.isError) {
			l.tb.Errorf("event %d (%s): session %q, want %q", i, a.tool, ev.SessionID, session)
		}
		p, err := ev.Payload()
		if err != nil {
			l.tb.Errorf("event %d: %v", i, err)
		}
		if _, isFailure := p.(*events.FailureData); isFailure != a.isError {
			l.tb.Errorf("event %d (%s): payload %T for isError=%v", i, a.tool, p, a.isError)
		}
	}
}

func TestSession_Full(t *testing.T) {
	e := newEnv(t, envOptions{})
	workflow, rule, ctxID := e.seed()
	l := &callLog{tb: t, c: e.connect()}
	args := func(s string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}

	l.fail("memdisc", nil, events.CodeSessionRequired)
	res := l.ok("memsetup", map[string]any{"session_id": "thread-42", "knownHashes": map[string]any{"META_PROMPT.md": ""}})
	if mpf := res["mpf"].(map[string]any); mpf["content"] != metaPrompt || mpf["hash"] != content.Hash([]byte(metaPrompt)) {
		t.Fatalf("memsetup mpf: got %v", mpf)
	}
	if got := len(l.ok("memdisc", nil)["items"].([]any)); got != 3 {
		t.Fatalf("memdisc: got %d items, want 3", got)
	}
	res = l.ok("memload", map[string]any{"ids": []string{workflow, ctxID}, "knownHashes": map[string]any{workflow: "", ctxID: ""}})
	items := res["items"].([]any)
	wf := items[0].(map[string]any)
	mustContain(t, wf["content"].(string), "ruleId: "+workflow, "workflow footer")
	if ctxItem := items[1].(map[string]any); ctxItem["content"] != ctxBody || ctxItem["constraints"] != nil {
		t.Fatalf("context item: got %v, want plain content and no constraints", ctxItem)
	}
	l.fail("memref", map[string]any{"refs": []any{map[string]any{"ruleId": workflow, "constraintId": "Steps/9"}}}, events.CodeUnknownConstraint)
	l.ok("memref", map[string]any{"refs": []any{
		map[string]any{"ruleId": workflow, "constraintId": "Steps/2", "ruleHash": wf["hash"], "reason": "test first"},
	}})

	create := l.ok("artifact", args(`{"resource":"context","op":{"create":{"path":"ops/deploy","body":"# Deploy\n"}}}`))
	tmp := create["id"].(string)
	if want := catalog.TmpID(events.ResourceContext, "ops/deploy.md"); tmp != want || create["draft_path"] != "ops/deploy.md" {
		t.Fatalf("create: got %v, want id %s and draft_path ops/deploy.md", create, want)
	}
	l.ok("artifact", args(`{"resource":"rule","op":{"update":{"id":"`+rule+`","body":"# Errors\n\n## Wrap\n\nWrap with %w.\n"}}}`))
	l.ok("artifact", args(`{"resource":"rule","op":{"rename":{"id":"`+workflow+`","new_path":"workflow/DEV.md"}}}`))
	l.ok("artifact", args(`{"resource":"context","op":{"delete":{"id":"`+ctxID+`"}}}`))
	l.ok("artifact", args(`{"resource":"context","op":{"discard":{"id":"`+ctxID+`"}}}`))

	disc := map[string]map[string]any{}
	for _, it := range l.ok("memdisc", nil)["items"].([]any) {
		m := it.(map[string]any)
		disc[m["id"].(string)] = m
	}
	for id, want := range map[string]string{tmp: "ops/deploy.md", rule: "go/ERRORS.md", workflow: "workflow/DEV.md", ctxID: "arch/overview.md"} {
		if disc[id] == nil || disc[id]["path"] != want {
			t.Errorf("memdisc %s: got %v, want path %s", id, disc[id], want)
		}
	}
	if disc[tmp]["hasDraft"] != true || disc[rule]["hasDraft"] != true || disc[ctxID]["hasDraft"] != nil {
		t.Errorf("memdisc hasDraft: got %v", disc)
	}
	// The rule's constraints stay those of the rule in force until its
	// draft is accepted, for the draft's author too.
	l.fail("memref", map[string]any{"refs": []any{map[string]any{"ruleId": rule, "constraintId": "Wrap"}}}, events.CodeUnknownConstraint)
	l.ok("memref", map[string]any{"refs": []any{map[string]any{"ruleId": rule, "constraintId": "Wrap with context"}}})
	l.ok("agentreport", map[string]any{"summary": "Staged the deploy notes."})
	l.checkLedger(e, "thread-42")

	// The refer event carries the hash in force and the constraint's name.
	evs := e.toolEvents()
	p, _ := evs[len(evs)-2].Payload()
	ref := p.(*events.ReferData).Refs[0]
	item, _ := e.catalog.View(context.Background(), rule)
	if item.InForce == nil || ref.RuleHash != item.InForce.Hash || ref.RuleHash != content.Hash([]byte(errorsBody)) || ref.Name != "Wrap with context" {
		t.Fatalf("refer event: got %+v, want the published hash %s", ref, content.Hash([]byte(errorsBody)))
	}
}

func TestSession_OneEventPerCall(t *testing.T) {
	e := newEnv(t, envOptions{readOnly: true})
	workflow, _, ctxID := e.seed()
	l := &callLog{tb: t, c: e.connect()}
	for _, tool := range []string{"memdisc", "memload", "memref", "agentreport", "agentrejected", "artifact"} {
		l.fail(tool, map[string]any{"bogus": true}, events.CodeSessionRequired)
	}
	l.fail("memsetup", map[string]any{"session_id": "no spaces allowed"}, events.CodeInvalidParams)
	l.ok("memsetup", map[string]any{"session_id": "s-1", "knownHashes": map[string]any{"META_PROMPT.md": ""}})
	l.fail("memsetup", map[string]any{"session_id": "s-2", "knownHashes": map[string]any{"META_PROMPT.md": ""}}, events.CodeSessionConflict)
	l.fail("memload", map[string]any{"ids": []string{"nope"}, "knownHashes": map[string]any{"nope": ""}}, events.CodeUnknownRule)
	l.fail("memref", map[string]any{"refs": []any{map[string]any{"ruleId": ctxID, "constraintId": "x"}}}, events.CodeInvalidTargetKind)
	l.fail("memref", map[string]any{"refs": []any{map[string]any{"ruleId": workflow, "constraintId": "Steps/1", "ruleHash": "sha256:" + strings.Repeat("ab", 32)}}}, events.CodeStaleRuleHash)
	l.fail("artifact", map[string]any{"resource": "rule", "op": map[string]any{"create": map[string]any{"path": "x", "body": "y"}}}, events.CodeReadOnly)
	l.fail("agentreport", map[string]any{"summary": ""}, events.CodeInvalidParams)
	l.ok("agentrejected", nil)
	if _, _, err := l.c.Call(context.Background(), "memory.complete", nil); err == nil {
		t.Fatal("an unknown tool answered; want a protocol error")
	}
	l.checkLedger(e, "s-1")
	// A refused memsetup belongs to the session its connection has (the
	// refused id stays in its arguments), or to none.
	for i, want := range map[int]string{0: "", 6: "", 7: "s-1", 8: "s-1"} {
		if got := e.toolEvents()[i].SessionID; got != want {
			t.Errorf("event %d: got session %q, want %q", i, got, want)
		}
	}

	// The events of failed calls keep the arguments the agent sent.
	evs := e.toolEvents()
	p, _ := evs[0].Payload()
	if f := p.(*events.FailureData); string(f.Args) != `{"bogus":true}` || !strings.Contains(f.Message, "memsetup") {
		t.Fatalf("failure payload: got %+v", f)
	}
}

func TestSession_Bindings(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.seed()
	a, b := e.connect(), e.connect()
	setup(t, a, "thread-a")
	mustFail(t, b, "memdisc", nil, events.CodeSessionRequired)
	setup(t, b, "thread-b")
	mustOK(t, a, "memdisc", nil)
	mustOK(t, b, "agentreport", map[string]any{"summary": "b done"})
	evs := e.toolEvents()
	if got := evs[len(evs)-1].SessionID; got != "thread-b" {
		t.Fatalf("b's event has session %q, want thread-b", got)
	}
	res := setup(t, a, "thread-a") // the same id again is fine
	if res["sessionId"] != "thread-a" {
		t.Fatalf("repeated memsetup: got %v", res)
	}
	if got := e.srv.sessions.count(); got != 2 {
		t.Fatalf("got %d bound connections, want 2", got)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the closed connection to be forgotten", func() bool { return e.srv.sessions.count() == 1 })
}

func TestSession_UnrecordedSetupDoesNotBind(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.seed()
	c := e.connect()
	e.ledger.closed.Store(true)
	mustFail(t, c, "memsetup", map[string]any{"session_id": "first", "knownHashes": map[string]any{"META_PROMPT.md": ""}}, events.CodeUnavailable)
	e.ledger.closed.Store(false)
	setup(t, c, "second") // not a conflict: the failed memsetup bound nothing
	mustContain(t, e.logs.String(), "events: log closed", "server log")
}

func TestInstructions(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, version := range []string{"", "2025-11-25", "2025-06-18"} {
		t.Run("NoMetaPrompt/"+version, func(t *testing.T) {
			got := connectVersion(t, e, version).Instructions()
			if got != protocolSummary {
				t.Fatalf("got instructions %q, want the protocol summary", got)
			}
		})
	}
	e.seed() // published after the server started: instructions follow the catalog
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("MetaPrompt/"+version, func(t *testing.T) {
			if got := connectVersion(t, e, version).Instructions(); got != metaPrompt {
				t.Fatalf("got instructions %q, want the META_PROMPT", got)
			}
		})
	}
	mustContain(t, protocolSummary, "discover, load, apply, refer, refine, submit", "summary")
}

// connectVersion connects a client that asks for a protocol version ("" for
// the SDK's newest, which uses server/discover instead of initialize).
func connectVersion(tb testing.TB, e *env, version string) *Client {
	tb.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := e.srv.mcp.Connect(ctx, st, nil)
	if err != nil {
		tb.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		tb.Fatal(err)
	}
	c := &Client{cs: cs, ss: ss}
	tb.Cleanup(func() { _ = c.Close() })
	return c
}

func TestArtifact_BodyLimit(t *testing.T) {
	e := newEnv(t, envOptions{})
	_, rule, _ := e.seed()
	c := e.connect()
	setup(t, c, "s")
	big := strings.Repeat("x", MaxBody)
	mustOK(t, c, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"update": map[string]any{"id": rule, "body": big}}})
	res := mustFail(t, c, "artifact", map[string]any{"resource": "context", "op": map[string]any{"create": map[string]any{"path": "big", "body": big + "y"}}}, events.CodeInvalidParams)
	if res["field"] != "op.create.body" {
		t.Fatalf("got field %v, want op.create.body", res["field"])
	}
	evs := e.toolEvents()
	last := evs[len(evs)-1]
	p, _ := last.Payload()
	f := p.(*events.FailureData)
	if last.Type != events.TypeDraftCreate || !f.ArgsTruncated || len(f.Args) > events.MaxFailureArgs || !json.Valid(f.Args) {
		t.Fatalf("failure event: type %s, truncated %v, %d bytes of args", last.Type, f.ArgsTruncated, len(f.Args))
	}
}

func TestInternal_LoggedNotShown(t *testing.T) {
	e := newEnv(t, envOptions{separateCatalog: true})
	workflow, _, _ := e.seed()
	c := e.connect()
	setup(t, c, "s")
	if err := e.catalog.Close(); err != nil {
		t.Fatal(err)
	}
	res := mustFail(t, c, "memload", map[string]any{"ids": []string{workflow}, "knownHashes": map[string]any{workflow: ""}}, events.CodeInternal)
	if msg := res["error"].(string); strings.Contains(msg, "projections") || strings.Contains(msg, "closed") {
		t.Fatalf("internal error shows Go error text: %q", msg)
	}
	mustContain(t, e.logs.String(), "projections: store closed", "server log")
}

func TestCutArgs(t *testing.T) {
	raw := []byte(`{"body":"` + strings.Repeat("é<", events.MaxFailureArgs) + `"}`)
	f := failureData("m", raw)
	var s string
	if !f.ArgsTruncated || len(f.Args) > events.MaxFailureArgs || json.Unmarshal(f.Args, &s) != nil || !strings.HasPrefix(string(raw), s) {
		t.Fatalf("got truncated=%v, %d bytes, want a JSON string of at most %d bytes holding the start", f.ArgsTruncated, len(f.Args), events.MaxFailureArgs)
	}
	if f := failureData("m", []byte(`{"a":1}`)); f.ArgsTruncated || string(f.Args) != `{"a":1}` {
		t.Fatalf("short args: got %+v", f)
	}
}

// waitFor polls cond for up to five seconds.
func waitFor(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
