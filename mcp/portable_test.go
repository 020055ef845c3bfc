package mcp

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"testing"
)

// The strictest checks mainstream MCP clients and model providers apply to
// a tool's schemas, taken together. A schema that passes all of them is
// read the same way by every client we know of.
//
//   - MCP Inspector 2.x, `--strict` (its schema portability lint): `type`
//     is a single name, never a list such as ["string", "null"] (rule
//     type-union: several clients read type as one string and reject the
//     tool or drop the constraint); an input schema's root is an object (the
//     MCP Tool contract types inputSchema as {type: "object"}).
//   - Google Gemini function declarations (an OpenAPI 3.0 subset): no $ref,
//     $defs or definitions; anyOf is the only composition keyword, and each
//     of its branches declares its own type; enum only on strings.
//   - OpenAI function calling and structured outputs: format only from the
//     nine it supports; required names only properties that exist.
//   - Every keyword is one of the draft 2020-12 keywords those three all
//     understand (portableKeywords); anything else (nullable, discriminator,
//     patternProperties, ...) is ignored or refused by one of them.
//   - A pattern compiles as RE2, the subset of ECMAScript regular
//     expressions that Go, Python and JavaScript validators share.

// portableKeywords are the schema keywords every mainstream client reads.
var portableKeywords = []string{
	"type", "description", "title", "enum", "const", "format",
	"pattern", "minLength", "maxLength",
	"minimum", "maximum",
	"items", "minItems", "maxItems",
	"properties", "required", "additionalProperties", "minProperties", "maxProperties",
	"anyOf",
}

// portableFormats are the formats OpenAI's structured outputs accept.
var portableFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

// portabilityProblems returns what keeps a decoded schema from being
// portable, one line per problem, each naming where it is. input says
// whether it is an input schema (whose root must be an object).
func portabilityProblems(s map[string]any, input bool) []string {
	var out []string
	if input && s["type"] != "object" {
		out = append(out, fmt.Sprintf("root: an input schema must have type \"object\", got %v", s["type"]))
	}
	checkPortable(s, "#", nil, !input, &out)
	return out
}

// checkPortable checks s, found at at. outer are the properties of the
// schema whose anyOf s is a branch of: a branch may require them. union
// says whether s may hold anyOf next to its type: the root of an output
// schema, whose type the MCP Tool contract fixes as "object" and whose
// anyOf branches (each of type object) say which properties a result and
// an error payload require. Output schemas are read by MCP clients'
// validators, not sent to model providers as function declarations.
func checkPortable(s map[string]any, at string, outer map[string]any, union bool, out *[]string) {
	add := func(format string, args ...any) { *out = append(*out, at+": "+fmt.Sprintf(format, args...)) }
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(portableKeywords, k) {
			add("keyword %q is not read by every client", k)
		}
	}
	typ, hasType := s["type"]
	if hasType {
		if _, ok := typ.(string); !ok {
			add("type is %v; use one type name (anyOf branches for a union)", typ)
		}
	}
	if f, ok := s["format"].(string); ok && !slices.Contains(portableFormats, f) {
		add("format %q is not supported everywhere", f)
	}
	if _, ok := s["enum"]; ok && typ != "string" {
		add("enum on type %v; enums are portable on strings only", typ)
	}
	if p, ok := s["pattern"].(string); ok {
		if _, err := regexp.Compile(p); err != nil {
			add("pattern %q: %v", p, err)
		}
	}
	props, _ := s["properties"].(map[string]any)
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			if name, _ := r.(string); props[name] == nil && outer[name] == nil {
				add("required names %v, which is not a property", r)
			}
		}
	}
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if m, ok := props[k].(map[string]any); ok {
			checkPortable(m, at+"/properties/"+k, nil, false, out)
		} else {
			add("property %q is not a schema object", k)
		}
	}
	for _, k := range []string{"items", "additionalProperties"} {
		if m, ok := s[k].(map[string]any); ok {
			checkPortable(m, at+"/"+k, nil, false, out)
		}
	}
	if list, ok := s["anyOf"].([]any); ok {
		if hasType && (!union || typ != "object") {
			add("anyOf next to type; put the type in each branch")
		}
		for i, v := range list {
			m, ok := v.(map[string]any)
			if !ok {
				add("anyOf branch %d is not a schema object", i)
				continue
			}
			if _, ok := m["type"].(string); !ok {
				add("anyOf branch %d has no type of its own", i)
			}
			checkPortable(m, fmt.Sprintf("%s/anyOf/%d", at, i), props, false, out)
		}
	}
}

func TestSchemas_Portable(t *testing.T) {
	e := newEnv(t, envOptions{})
	tools := listTools(t, e.connect())
	if len(tools) != 7 {
		t.Fatalf("got %d tools, want 7", len(tools))
	}
	for name, tool := range tools {
		if tool.OutputSchema == nil {
			t.Errorf("%s has no output schema", name)
			continue
		}
		for _, p := range portabilityProblems(asMap(t, tool.InputSchema), true) {
			t.Errorf("%s input schema: %s", name, p)
		}
		for _, p := range portabilityProblems(asMap(t, tool.OutputSchema), false) {
			t.Errorf("%s output schema: %s", name, p)
		}
	}
}

// TestSchemas_PortableCheck shows that the check above catches what each
// rule is about, so that a pass means something.
func TestSchemas_PortableCheck(t *testing.T) {
	// union is an object that requires one of two sets of its properties:
	// portable at the root of an output schema only.
	union := map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}, "b": map[string]any{"type": "string"}},
		"anyOf": []any{map[string]any{"type": "object", "required": []any{"a"}}, map[string]any{"type": "object", "required": []any{"b"}}}}
	for _, tc := range []struct {
		name   string
		schema map[string]any
		input  bool
		want   int
	}{
		{"TypeList", map[string]any{"type": "object", "properties": map[string]any{"content": map[string]any{"type": []any{"string", "null"}}}}, false, 1},
		{"InputRootNotObject", map[string]any{"type": "string"}, true, 1},
		{"Ref", map[string]any{"type": "object", "$defs": map[string]any{}, "properties": map[string]any{"a": map[string]any{"$ref": "#/$defs/a"}}}, true, 2},
		{"OneOf", map[string]any{"oneOf": []any{map[string]any{"type": "string"}}}, false, 1},
		{"AnyOfBranchWithoutType", map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"enum": []any{"x"}}}}, false, 2},
		{"Nullable", map[string]any{"type": "string", "nullable": true}, false, 1},
		{"Format", map[string]any{"type": "string", "format": "uri"}, false, 1},
		{"RequiredUnknown", map[string]any{"type": "object", "required": []any{"a"}}, true, 1},
		{"BadPattern", map[string]any{"type": "string", "pattern": "(?<=a)b"}, false, 1},
		{"InputUnion", union, true, 1},
		{"OutputUnion", union, false, 0},
		{"Portable", map[string]any{"type": "object", "properties": map[string]any{
			"content": map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "null"}}},
		}, "required": []any{"content"}}, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := portabilityProblems(tc.schema, tc.input)
			if len(got) != tc.want {
				t.Fatalf("got %d problems %q, want %d", len(got), got, tc.want)
			}
		})
	}
}
