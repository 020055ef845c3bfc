package events_test

import (
	"errors"
	"reflect"
	"testing"
	"unsafe"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
)

func TestDecodeStored_SameEventSharingTheBytes(t *testing.T) {
	b, err := events.Encode(eventstest.Event(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	want, err := events.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := events.DecodeStored(b)
	if err != nil {
		t.Fatal(err)
	}
	if &got.Raw[0] != &b[0] {
		t.Error("Raw is not the stored bytes")
	}
	got.Raw = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DecodeStored: got %+v, want %+v as Decode gives", got, want)
	}
	// Data and the id are read in place, not copied.
	start, end := uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&b[len(b)-1]))
	for name, p := range map[string]uintptr{"data": uintptr(unsafe.Pointer(&got.Data[0])), "id": uintptr(unsafe.Pointer(unsafe.StringData(got.ID)))} {
		if p < start || p > end {
			t.Errorf("the event's %s was copied", name)
		}
	}
}

func TestDecodeStored_Malformed(t *testing.T) {
	b, err := events.Encode(eventstest.Event(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{``, `{`, `[]`, `{"v":1}`, string(b) + `x`, string(b) + `{}`} {
		if _, err := events.DecodeStored([]byte(in)); !errors.Is(err, events.ErrMalformed) {
			t.Errorf("DecodeStored(%.40q...): got %v, want ErrMalformed", in, err)
		}
	}
	if _, err := events.DecodeStored(append(b, " \n"...)); err != nil {
		t.Errorf("trailing white space: %v", err)
	}
}

// DecodeStoredInto overwrites the whole event: nothing of the event it
// held before stays, neither after an event that lacks its fields nor
// after bytes that do not decode.
func TestDecodeStoredInto_OverwritesWhole(t *testing.T) {
	withTool := eventstest.Event(t, 1)
	withTool.Outcome, withTool.ErrorCode = events.OutcomeError, "stale_rule_hash"
	plain := eventstest.Event(t, 2)
	plain.Tool, plain.DurationUs = "", 0
	var ev events.Event
	for _, want := range []events.Event{withTool, plain} {
		b, err := events.Encode(want)
		if err != nil {
			t.Fatal(err)
		}
		if err := events.DecodeStoredInto(&ev, b); err != nil {
			t.Fatal(err)
		}
		got := ev
		got.Raw = nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %+v, want %+v", got, want)
		}
	}
	if err := events.DecodeStoredInto(&ev, []byte(`{"v":1}`)); !errors.Is(err, events.ErrMalformed) {
		t.Fatalf("got %v, want ErrMalformed", err)
	}
	if !reflect.DeepEqual(ev, events.Event{}) {
		t.Errorf("after a failed decode the event holds %+v, want it empty", ev)
	}
}
