package mcp

import (
	"bytes"
	"encoding/json"

	"github.com/clumsies/clumsies/events"
)

// Small builders for the tools' JSON schemas (draft 2020-12 keywords that
// every client understands; TestSchemas_Portable names the rules). Every input object is built by object, which
// sets additionalProperties to false; the only exception is a map
// (stringMap), whose values are typed instead. The package builds its own
// schema values rather than importing a JSON Schema library: the SDK takes
// any value that encodes as a schema.

// schema is one JSON schema.
type schema struct {
	Type                 string      `json:"type,omitempty"` // one type name: a list of them is not portable
	AnyOf                []*schema   `json:"anyOf,omitempty"`
	Description          string      `json:"description,omitempty"`
	Enum                 []string    `json:"enum,omitempty"`
	Pattern              string      `json:"pattern,omitempty"`
	MinLength            *int        `json:"minLength,omitempty"`
	MaxLength            *int        `json:"maxLength,omitempty"`
	Properties           *properties `json:"properties,omitempty"`
	Required             []string    `json:"required,omitempty"`
	AdditionalProperties any         `json:"additionalProperties,omitempty"` // false, or the schema of the values
	MinProperties        *int        `json:"minProperties,omitempty"`
	MaxProperties        *int        `json:"maxProperties,omitempty"`
	Items                *schema     `json:"items,omitempty"`
	MinItems             *int        `json:"minItems,omitempty"`
}

// properties are an object's properties, encoded in declaration order so
// that tools/list reads in the order the fields matter.
type properties []prop

func (ps properties) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(p.name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(p.s)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// prop is one property of an object schema, in declaration order.
type prop struct {
	name     string
	required bool
	s        *schema
}

func required(name string, s *schema) prop { return prop{name, true, s} }
func optional(name string, s *schema) prop { return prop{name, false, s} }

// object returns a closed object schema: the listed properties and nothing
// else.
func object(desc string, props ...prop) *schema {
	ps := properties(props)
	s := &schema{Type: "object", Description: desc, Properties: &ps, AdditionalProperties: false}
	for _, p := range props {
		if p.required {
			s.Required = append(s.Required, p.name)
		}
	}
	return s
}

// openObject is an output object: the listed properties (the required
// ones are those every answer carries), anything else allowed.
func openObject(desc string, props ...prop) *schema {
	s := object(desc, props...)
	s.AdditionalProperties = nil
	return s
}

func str(desc string) *schema { return &schema{Type: "string", Description: desc} }

// nonEmpty is a string that must hold at least one character.
func nonEmpty(desc string) *schema {
	one := 1
	return &schema{Type: "string", Description: desc, MinLength: &one}
}

func enum(desc string, values ...string) *schema {
	return &schema{Type: "string", Description: desc, Enum: values}
}

// nullableStr is a string or null, in the form every client reads: anyOf
// branches with one type each. (The equivalent "type": ["string", "null"]
// is refused or misread by clients that take type to be a single name.)
func nullableStr(desc string) *schema {
	return &schema{Description: desc, AnyOf: []*schema{{Type: "string"}, {Type: "null"}}}
}

func boolean(desc string) *schema { return &schema{Type: "boolean", Description: desc} }

func integer(desc string) *schema { return &schema{Type: "integer", Description: desc} }

func array(desc string, items *schema, minItems int) *schema {
	s := &schema{Type: "array", Description: desc, Items: items}
	if minItems > 0 {
		s.MinItems = &minItems
	}
	return s
}

// stringMap is an object whose keys are free and whose values are strings.
func stringMap(desc string, valueDesc string) *schema {
	return &schema{Type: "object", Description: desc, AdditionalProperties: str(valueDesc)}
}

// errorProps are the fields of an error payload (errors.go); every output
// schema lists them so that clients which validate structuredContent
// against outputSchema even on errors accept the payload.
func errorProps() []prop {
	codeValues := make([]string, 0, len(codes))
	for _, c := range events.Codes() {
		codeValues = append(codeValues, string(c))
	}
	actions := []string{}
	for _, a := range retryActions() {
		actions = append(actions, string(a))
	}
	return []prop{
		optional("error", str("On failure: what went wrong and what to do about it.")),
		optional("code", enum("On failure: the error code, one of a closed set.", codeValues...)),
		optional("retryable", boolean("On failure: whether calling again (after retryAction) can succeed.")),
		optional("retryAction", enum("On failure: what to do before calling again.", actions...)),
		optional("field", str("On invalid_params: the argument that is wrong, as a JSON path.")),
		optional("index", integer("On a memref failure: the position in refs of the first bad ref.")),
		optional("validConstraints", array("On unknown_constraint: the constraints the rule has; copy an id from here.",
			openObject("", optional("id", str("")), optional("name", str("")), optional("text", str(""))), 0)),
		optional("currentHash", str("On stale_rule_hash: the rule's current hash.")),
		optional("existingId", str("On draft_exists: the id of the object or draft that holds the path.")),
	}
}

// errorRequired are the fields every error payload carries (errors.go).
var errorRequired = []string{"error", "code", "retryable"}

// output returns a tool's output schema: the result's properties plus the
// error payload's, and one of two sets of required ones: the result's
// (props declared required) or the error's. So an answer validates only
// when it is a whole result or a whole error payload.
func output(desc string, props ...prop) *schema {
	s := openObject(desc, append(props, errorProps()...)...)
	s.AnyOf = []*schema{{Type: "object", Required: s.Required}, {Type: "object", Required: errorRequired}}
	s.Required = nil
	return s
}

// sessionIDSchema is the schema of session_id: the one rule for an id
// (events.ValidSessionID).
func sessionIDSchema() *schema {
	s := nonEmpty(descSessionID)
	s.Pattern = events.SessionIDPattern
	return s
}
