package schema

import (
	"fmt"
	"reflect"

	"github.com/clumsies/clumsies/events"
	"github.com/google/jsonschema-go/jsonschema"
)

// Payload returns the JSON Schema of the data of a successful event of type
// t, pretty-printed. It fails for a type events does not know and for one
// this package has no description of.
func Payload(t events.Type) ([]byte, error) {
	s, err := payload(t)
	if err != nil {
		return nil, err
	}
	return render(s)
}

func payload(t events.Type) (*jsonschema.Schema, error) {
	p, ok := events.NewPayload(t)
	if !ok {
		return nil, fmt.Errorf("build payload schema: unknown event type %q", t)
	}
	a, ok := typeAbout(t)
	if !ok {
		return nil, fmt.Errorf("build payload schema of %s: the type has no title or description", t)
	}
	return infer(reflect.TypeOf(p).Elem(), a)
}

// failure returns the schema of events.FailureData, the data of every
// failed tool call.
func failure() (*jsonschema.Schema, error) {
	return infer(reflect.TypeFor[events.FailureData](), failureAbout)
}
