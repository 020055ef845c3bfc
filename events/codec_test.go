package events_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
)

func TestCodec_RoundTrip(t *testing.T) {
	ev := eventstest.Event(t, 7)
	ev.Seq = 99
	b, err := events.Encode(ev)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"seq"`) {
		t.Fatalf("encoded event carries seq: %s", b)
	}
	got, err := events.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != ev.ID || got.Type != ev.Type || string(got.Data) != string(ev.Data) || got.Seq != 0 {
		t.Fatalf("round trip: got %+v, want %+v without seq", got, ev)
	}
	p, err := got.Payload()
	if err != nil {
		t.Fatal(err)
	}
	refer, ok := p.(*events.ReferData)
	if !ok || refer.Refs[0].ConstraintID != "Steps/7" {
		t.Fatalf("payload: got %#v, want ReferData with Steps/7", p)
	}
}

func TestCodec_Decode(t *testing.T) {
	t.Run("ErrIncompatible", func(t *testing.T) {
		b, _ := events.Encode(eventstest.Event(t, 1))
		newer := strings.Replace(string(b), `"v":1`, `"v":2`, 1)
		if _, err := events.Decode([]byte(newer)); !errors.Is(err, events.ErrIncompatible) {
			t.Fatalf("got %v, want ErrIncompatible", err)
		}
	})
	t.Run("ErrMalformed", func(t *testing.T) {
		for _, in := range []string{``, `{`, `[]`, `{"v":1}`, `{"v":1,"id":"x","type":"attest.refer","workspaceId":"bad id","outcome":"ok"}`} {
			if _, err := events.Decode([]byte(in)); !errors.Is(err, events.ErrMalformed) {
				t.Fatalf("Decode(%q): got %v, want ErrMalformed", in, err)
			}
		}
	})
}

func TestEvent_FailurePayload(t *testing.T) {
	ev, err := events.New(eventstest.WorkspaceID, events.TypeRefer, events.FailureData{Message: "bad"})
	if err != nil {
		t.Fatal(err)
	}
	ev.Outcome = events.OutcomeError
	p, err := ev.Payload()
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := p.(*events.FailureData); !ok || f.Message != "bad" {
		t.Fatalf("got %#v, want FailureData{bad}", p)
	}
}

func TestNewID_Monotonic(t *testing.T) {
	prev := events.NewID()
	for range 10000 {
		id := events.NewID()
		if id <= prev {
			t.Fatalf("got %s after %s, want increasing ids", id, prev)
		}
		if !events.ValidID(id) {
			t.Fatalf("got invalid id %s", id)
		}
		prev = id
	}
}

func TestSubject(t *testing.T) {
	ev := eventstest.Event(t, 1)
	if got, want := ev.Subject(), "clumsies."+eventstest.WorkspaceID+".attest.refer"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if got, want := events.StreamSubjects("ws-1"), "clumsies.ws-1.>"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestTypes_Registered(t *testing.T) {
	for _, typ := range events.Types() {
		if !typ.Valid() {
			t.Fatalf("type %s listed but not registered", typ)
		}
		if _, ok := events.NewPayload(typ); !ok {
			t.Fatalf("type %s has no payload", typ)
		}
	}
}

func TestValidWorkspaceID(t *testing.T) {
	for id, want := range map[string]bool{
		"ws-0123456789abcdef0123456789abcdef": true, "ws-a": true, "ws-a-b": true,
		"": false, "ws-": false, "ws--a": false, "ws-A": false, "ws-a.b": false, "ws-a b": false,
		"ws-a*": false, "ws->": false, "xs-a": false, "ws-" + strings.Repeat("a", 64): false,
	} {
		if got := events.ValidWorkspaceID(id); got != want {
			t.Fatalf("ValidWorkspaceID(%q): got %t, want %t", id, got, want)
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	raw, _ := events.Encode(eventstest.Event(b, 1))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := events.Decode(raw); err != nil {
			b.Fatal(err)
		}
	}
}

func TestEvent_ChangesCatalog(t *testing.T) {
	for _, typ := range events.Types() {
		ev, _ := events.New(eventstest.WorkspaceID, typ, nil)
		want := typ.IsDraft() || strings.HasPrefix(string(typ), "catalog.")
		if got := ev.ChangesCatalog(); got != want {
			t.Fatalf("%s: got %t, want %t", typ, got, want)
		}
		ev.Outcome = events.OutcomeError
		if ev.ChangesCatalog() {
			t.Fatalf("failed %s: got true, want false", typ)
		}
	}
}
