package schema_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/schema"
)

// sampleEvent returns a valid event of type typ with a filled payload, as
// read back from a log (Seq set).
func sampleEvent(tb testing.TB, typ events.Type) events.Event {
	tb.Helper()
	p, _ := events.NewPayload(typ)
	ev, err := events.New("ws-1234", typ, filled(reflect.TypeOf(p).Elem()))
	if err != nil {
		tb.Fatal(err)
	}
	ev.Seq = 7
	if typ.IsTool() {
		ev.SessionID, ev.Tool, ev.DurationUs = "host-1", "memref", 1234
	}
	return ev
}

// asMap returns the JSON object of ev, for tests that break one field.
func asMap(tb testing.TB, ev events.Event) map[string]any {
	tb.Helper()
	b, err := json.Marshal(ev)
	if err != nil {
		tb.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatal(err)
	}
	return m
}

func TestEnvelope_Valid(t *testing.T) {
	b, err := schema.Envelope()
	r := resolve(t, b, err)
	for _, typ := range events.Types() {
		t.Run(string(typ), func(t *testing.T) {
			ev := sampleEvent(t, typ)
			if err := validate(t, r, ev); err != nil {
				t.Errorf("event as read: got %v, want it valid", err)
			}
			stored, err := events.Encode(ev)
			if err != nil {
				t.Fatal(err)
			}
			if err := validate(t, r, json.RawMessage(stored)); err != nil {
				t.Errorf("stored event (no seq): got %v, want it valid", err)
			}
		})
	}
	t.Run("Failure", func(t *testing.T) {
		ev := sampleEvent(t, events.TypeRefer)
		ev.Outcome, ev.ErrorCode = events.OutcomeError, "unknown_rule"
		ev.Data = json.RawMessage(`{"message":"Unknown rule id: p-1","args":{"refs":[]}}`)
		if err := validate(t, r, ev); err != nil {
			t.Errorf("got %v, want it valid", err)
		}
	})
}

func TestEnvelope_Invalid(t *testing.T) {
	b, err := schema.Envelope()
	r := resolve(t, b, err)
	for _, tc := range []struct {
		name  string
		spoil func(m map[string]any)
	}{
		{"UnknownOutcome", func(m map[string]any) { m["outcome"] = "maybe" }},
		{"ErrorWithoutCode", func(m map[string]any) { m["outcome"] = "error" }},
		{"CodeWithoutError", func(m map[string]any) { m["errorCode"] = "internal" }},
		{"UnknownCode", func(m map[string]any) { m["outcome"], m["errorCode"] = "error", "oops" }},
		{"UnknownType", func(m map[string]any) { m["type"] = "attest.nope" }},
		{"TimeWithoutMillis", func(m map[string]any) { m["time"] = "2026-01-02T03:04:05Z" }},
		{"TimeNotUTC", func(m map[string]any) { m["time"] = "2026-01-02T03:04:05.000+01:00" }},
		{"IDNotULID", func(m map[string]any) { m["id"] = "evt-1" }},
		{"BadWorkspace", func(m map[string]any) { m["workspaceId"] = "ws-A.B" }},
		{"VersionZero", func(m map[string]any) { m["v"] = 0 }},
		{"SeqZero", func(m map[string]any) { m["seq"] = 0 }},
		{"NoData", func(m map[string]any) { delete(m, "data") }},
		{"DataNotObject", func(m map[string]any) { m["data"] = "x" }},
		{"UnknownField", func(m map[string]any) { m["extra"] = true }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := asMap(t, sampleEvent(t, events.TypeRefer))
			tc.spoil(m)
			if err := r.Validate(m); err == nil {
				t.Errorf("got valid for %v, want an error", m)
			}
		})
	}
}
