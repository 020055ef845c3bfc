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
