package foldcase

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

type line struct {
	Type string `json:"type"`
	N    int    `json:"n"`
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Lines leaves out blanks and comments, and Rewrite replaces the want
// section in the file, which reads back the same.
func TestLinesAndRewrite(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "one.txtar", "About one.\n-- events --\n# first\n{\"type\":\"a\",\"n\":1}\n\n  {\"type\":\"b\",\"n\":2}\n-- want --\nold\n")
	cases := Read(t, dir)
	if len(cases) != 1 || cases[0].Name != "one" {
		t.Fatalf("cases %+v, want one named one", cases)
	}
	got := Lines[line](t, cases[0])
	if len(got) != 2 || got[0] != (line{"a", 1}) || got[1] != (line{"b", 2}) {
		t.Fatalf("lines %+v, want a 1 then b 2", got)
	}
	cases[0].Rewrite(t, "want", "new\n")
	again := Read(t, dir)[0]
	if w := again.Section(t, "want"); w != "new\n" {
		t.Fatalf("want after Rewrite: %q", w)
	}
	if e := again.Section(t, "events"); !strings.Contains(e, "# first") {
		t.Fatalf("events after Rewrite lost the comment: %q", e)
	}
}

// A line with a field the line type lacks fails the test that reads it,
// naming the file and line.
func TestLines_UnknownField(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "bad.txtar", "-- events --\n{\"type\":\"a\"}\n{\"type\":\"a\",\"typo\":1}\n")
	c := Read(t, dir)[0]
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Lines[line](rec, c)
	}()
	<-done
	if !strings.Contains(rec.msg, "events line 2") || !strings.Contains(rec.msg, "typo") {
		t.Fatalf("failure %q, want one naming events line 2 and the field", rec.msg)
	}
}

// recorder records a Fatalf and ends its goroutine, as testing.T does.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// Events makes the events a workspace case stands for: in order with
// their sequences and stored bytes, tool calls of their tool in session
// s1 unless the line names one, failed calls with their code, and a
// catalog.publish with the hash of its body.
func TestEvents(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "ws.txtar", `-- events --
{"type":"catalog.publish","data":{"id":"r1","kind":"rule","path":"rules/a.md","name":"a","body":"Body."}}
{"type":"attest.load","data":{"items":[]}}
{"type":"attest.load","session":"s2","code":"bad_request","data":{}}
`)
	evs := Events(t, "ws-cases", Read(t, dir)[0])
	if len(evs) != 3 {
		t.Fatalf("%d events, want 3", len(evs))
	}
	for i, ev := range evs {
		if ev.Seq != uint64(i+1) || len(ev.Raw) == 0 || ev.WorkspaceID != "ws-cases" {
			t.Errorf("event %d: seq %d, %d stored bytes, workspace %q", i, ev.Seq, len(ev.Raw), ev.WorkspaceID)
		}
	}
	p, err := evs[0].Payload()
	if err != nil {
		t.Fatal(err)
	}
	if h := p.(*events.PublishData).Hash; h != content.Hash([]byte("Body.")) {
		t.Errorf("publish hash %q, want the body's", h)
	}
	if ev := evs[1]; ev.Tool != "memload" || ev.SessionID != "s1" || ev.Outcome != events.OutcomeOK {
		t.Errorf("load: tool %q, session %q, outcome %q", ev.Tool, ev.SessionID, ev.Outcome)
	}
	if ev := evs[2]; ev.SessionID != "s2" || ev.Outcome != events.OutcomeError || ev.ErrorCode != "bad_request" {
		t.Errorf("failed load: session %q, outcome %q, code %q", ev.SessionID, ev.Outcome, ev.ErrorCode)
	}
}

// Every type a tool call records has its tool's name, so that no tool
// event of a case is of no tool.
func TestTool_EveryToolType(t *testing.T) {
	for _, typ := range events.Types() {
		if typ.IsTool() != (Tool(typ) != "") {
			t.Errorf("%s: tool call %v, tool %q", typ, typ.IsTool(), Tool(typ))
		}
	}
}
