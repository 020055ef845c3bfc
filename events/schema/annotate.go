package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// draft is the JSON Schema dialect of every schema.
const draft = "https://json-schema.org/draft/2020-12/schema"

// rawType is json.RawMessage, which the inference would see as a byte
// slice: it holds any JSON value instead.
var rawType = reflect.TypeFor[json.RawMessage]()

// infer returns the schema of Go type t, with every property described
// from fieldAbout.
func infer(t reflect.Type, a about) (*jsonschema.Schema, error) {
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{
		TypeSchemas: map[reflect.Type]*jsonschema.Schema{rawType: {}},
	})
	if err != nil {
		return nil, fmt.Errorf("infer schema of %s: %w", t, err)
	}
	if err := describeFields(s, t); err != nil {
		return nil, fmt.Errorf("describe %s: %w", t, err)
	}
	s.Schema = draft
	s.Title = a.title
	s.Description = a.description
	return s, nil
}

// describeFields sets the description of every property of s, the schema
// inferred from t, and of the objects nested in it. It fails naming the
// first property without a description, so that no field goes undocumented.
func describeFields(s *jsonschema.Schema, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == rawType:
		return nil
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		return describeFields(s.Items, t.Elem())
	case t.Kind() == reflect.Map:
		return describeFields(s.AdditionalProperties, t.Elem())
	case t.Kind() != reflect.Struct:
		return nil
	}
	docs := fieldAbout[t]
	for _, f := range reflect.VisibleFields(t) {
		name, ok := jsonName(f)
		if !ok || s.Properties[name] == nil {
			continue
		}
		doc := docs[name]
		if doc == "" {
			return fmt.Errorf("property %s (field %s.%s) has no description in fieldAbout", name, t.Name(), f.Name)
		}
		prop := s.Properties[name]
		prop.Description = doc
		if err := describeFields(prop, f.Type); err != nil {
			return err
		}
	}
	return nil
}

// jsonName returns the name encoding/json gives field f, and false for a
// field it skips.
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() || f.Anonymous {
		return "", false
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	switch name {
	case "-":
		return "", false
	case "":
		return f.Name, true
	}
	return name, true
}
