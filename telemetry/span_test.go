package telemetry

import (
	"encoding/hex"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/mcp"
)

func hexOf(b []byte) string { return hex.EncodeToString(b) }

// TestSpanOf checks a call's span: a root of a trace of its own without
// trace context, the host's span's child in its trace with it (keeping
// the sanitized tracestate), and none for a host's trace that is not
// sampled, as the SDK's default sampler (parent-based) did.
func TestSpanOf(t *testing.T) {
	const host = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-"
	call := func(meta map[string]any) *finished {
		now := time.Now()
		return &finished{rec: mcp.CallRecord{Start: now, Meta: meta, Event: events.Event{Tool: "memload"}}, end: now.Add(time.Millisecond)}
	}
	t.Run("Root", func(t *testing.T) {
		a, b := call(nil), call(map[string]any{"traceparent": "garbage"})
		sa, oka := spanOf(a, callAttributes(a.rec))
		sb, okb := spanOf(b, callAttributes(b.rec))
		if !oka || !okb || sa.hasParent || sb.hasParent {
			t.Fatalf("spans without a valid traceparent: sampled %v %v, parent %v %v; want sampled roots", oka, okb, sa.hasParent, sb.hasParent)
		}
		if sa.traceID == sb.traceID || sa.spanID == sb.spanID || sa.traceID == ([16]byte{}) || sa.spanID == ([8]byte{}) {
			t.Fatalf("two roots share ids or have zero ids: %x %x, %x %x", sa.traceID, sb.traceID, sa.spanID, sb.spanID)
		}
		if sa.name != "tools/call memload" {
			t.Fatalf("name %q", sa.name)
		}
	})
	t.Run("Child", func(t *testing.T) {
		f := call(map[string]any{"traceparent": host + "01", "tracestate": "host=1,BAD=2"})
		s, ok := spanOf(f, callAttributes(f.rec))
		if !ok || !s.hasParent {
			t.Fatalf("sampled %v, parent %v: want a sampled child", ok, s.hasParent)
		}
		if got := hexOf(s.traceID[:]); got != "4bf92f3577b34da6a3ce929d0e0e4736" {
			t.Errorf("trace %s, want the host's", got)
		}
		if got := hexOf(s.parent.spanID[:]); got != "00f067aa0ba902b7" {
			t.Errorf("parent %s, want the host's span", got)
		}
		if s.spanID == s.parent.spanID {
			t.Errorf("the span has its parent's id")
		}
		if s.parent.state != "host=1" {
			t.Errorf("tracestate %q, want host=1", s.parent.state)
		}
	})
	t.Run("NotSampled", func(t *testing.T) {
		f := call(map[string]any{"traceparent": host + "00"})
		if _, ok := spanOf(f, callAttributes(f.rec)); ok {
			t.Fatal("the span of a host's trace that is not sampled is exported")
		}
	})
}
