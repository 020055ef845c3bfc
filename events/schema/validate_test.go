package schema_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/schema"
	"github.com/google/jsonschema-go/jsonschema"
)

// resolve parses and resolves a schema produced by the package.
func resolve(tb testing.TB, b []byte, err error) *jsonschema.Resolved {
	tb.Helper()
	if err != nil {
		tb.Fatalf("build schema: %v", err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		tb.Fatalf("parse schema: %v", err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		tb.Fatalf("resolve schema %q: %v", s.Title, err)
	}
	return r
}

// validate checks the JSON encoding of v against r.
func validate(tb testing.TB, r *jsonschema.Resolved, v any) error {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatalf("encode sample: %v", err)
	}
	var instance any
	if err := json.Unmarshal(b, &instance); err != nil {
		tb.Fatalf("decode sample: %v", err)
	}
	return r.Validate(instance)
}

// filled returns a pointer to a value of type t with every field set, so
// that the sample exercises every property of the schema.
func filled(t reflect.Type) any {
	v := reflect.New(t)
	fill(v.Elem())
	return v.Interface()
}

func fill(v reflect.Value) {
	if v.Type() == reflect.TypeFor[json.RawMessage]() {
		v.SetBytes([]byte(`{"ids":["p-1"],"knownHashes":{"p-1":""}}`))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("sample")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(2)
	case reflect.Uint, reflect.Uint64, reflect.Uint32:
		v.SetUint(2)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i))
		}
		v.Set(s)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	}
}

func TestPayload_Samples(t *testing.T) {
	for _, typ := range events.Types() {
		t.Run(string(typ), func(t *testing.T) {
			b, err := schema.Payload(typ)
			r := resolve(t, b, err)
			p, _ := events.NewPayload(typ)
			if err := validate(t, r, p); err != nil {
				t.Errorf("zero payload: got %v, want it valid", err)
			}
			full := filled(reflect.TypeOf(p).Elem())
			if err := validate(t, r, full); err != nil {
				t.Errorf("filled payload %+v: got %v, want it valid", full, err)
			}
			if err := r.Validate(map[string]any{"notAField": 1}); err == nil {
				t.Errorf("payload with an unknown property: got valid, want an error")
			}
		})
	}
}

func TestFailure_Samples(t *testing.T) {
	r := fileSchema(t, schema.FailureFile)
	for name, sample := range map[string]events.FailureData{
		"MessageOnly": {Message: "Unknown rule id: p-1"},
		"WithArgs":    {Message: "bad", Args: json.RawMessage(`{"ids":["p-1"]}`)},
		"Truncated":   {Message: "bad", Args: json.RawMessage(`"{\"ids\":[\"p-"`), ArgsTruncated: true},
		"Filled":      *filled(reflect.TypeFor[events.FailureData]()).(*events.FailureData),
	} {
		t.Run(name, func(t *testing.T) {
			if err := validate(t, r, sample); err != nil {
				t.Errorf("got %v, want %+v valid", err, sample)
			}
		})
	}
	if err := r.Validate(map[string]any{"args": 1}); err == nil {
		t.Errorf("failure without message: got valid, want an error")
	}
}

// fileSchema returns the resolved schema of one of schema.Files.
func fileSchema(tb testing.TB, name string) *jsonschema.Resolved {
	tb.Helper()
	files, err := schema.Files()
	b, ok := files[name]
	if err == nil && !ok {
		tb.Fatalf("Files has no %s", name)
	}
	return resolve(tb, b, err)
}

func TestPayload_UnknownType(t *testing.T) {
	if _, err := schema.Payload("attest.nope"); err == nil || !strings.Contains(err.Error(), "unknown event type") {
		t.Errorf("got error %v, want one about an unknown event type", err)
	}
}
