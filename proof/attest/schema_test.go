package attest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/proof/attest"
)

// published is the predicate's JSON Schema, relative to this package.
var published = filepath.Join("..", "..", "docs", "schema", "attest", "commit-v1.json")

func loadSchema(tb testing.TB) *jsonschema.Schema {
	tb.Helper()
	b, err := os.ReadFile(published)
	if err != nil {
		tb.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		tb.Fatalf("%s: %v", published, err)
	}
	return &s
}

// TestSchema_Fields: every field of the Go types has its property in the
// published schema, with a description, and the schema has no other.
func TestSchema_Fields(t *testing.T) {
	s := loadSchema(t)
	if s.ID != attest.PredicateType {
		t.Errorf("the schema's $id is %q, the predicate type %q", s.ID, attest.PredicateType)
	}
	var walk func(path string, typ reflect.Type, node *jsonschema.Schema)
	walk = func(path string, typ reflect.Type, node *jsonschema.Schema) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			typ = typ.Elem()
			if node.Items != nil {
				node = node.Items
			}
		}
		if typ.Kind() != reflect.Struct {
			return
		}
		if node.Properties == nil && len(node.AnyOf) > 0 {
			node = node.AnyOf[0]
		}
		var names []string
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			names = append(names, name)
			p := node.Properties[name]
			if p == nil {
				t.Errorf("%s.%s: no property in %s", path, name, published)
				continue
			}
			if p.Description == "" {
				t.Errorf("%s.%s: no description", path, name)
			}
			walk(path+"."+name, f.Type, p)
		}
		for name := range node.Properties {
			if !slices.Contains(names, name) {
				t.Errorf("%s.%s: in the schema, not in the Go type %s", path, name, typ)
			}
		}
		if node.AdditionalProperties == nil {
			t.Errorf("%s: the schema lets other properties in", path)
		}
	}
	walk("predicate", reflect.TypeFor[attest.Predicate](), s)
}

// TestSchema_Validates: predicates Attribute writes, with and without a
// checkpoint, validate; one with a field the schema does not know fails.
func TestSchema_Validates(t *testing.T) {
	r, err := loadSchema(t).Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	e := ledger(t, "",
		ev(t, "", events.TypeCatalogPublish, events.PublishData{ID: "p-1", Kind: "rule", Path: "API.md", Hash: "sha256:v1"}),
		ev(t, "a", events.TypeSessionStart, events.SessionStartData{Host: "codex", Model: "m"}),
		ev(t, "a", events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: "p-1", Hash: "sha256:v1", Changed: true}}}),
		ev(t, "a", events.TypeToolGated, events.ToolGatedData{Tool: "Bash", Paths: []string{"x.go"}, Decision: "allow", Unchecked: "no owner"}),
		write(t, "a", "x.go", "", "b1", []string{"p-1"}, nil),
		ev(t, "a", events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: "p-1", ConstraintID: "Do/1"}}}),
		ev(t, "", events.TypeCheckpoint, events.CheckpointData{Seq: 6, Node: "n", Signature: "s"}),
	)
	tg := attest.Target{Commit: "c", Base: "b", Changes: []attest.Change{{Path: "x.go", Blob: "b1"}, {Path: "y.go", Base: "b0", Blob: "b9"}}}
	for name, p := range map[string]attest.Predicate{"checkpointed": attest.Attribute(e, tg), "not yet": attest.Attribute(e.Upto(5), tg)} {
		var inst any
		b, _ := json.Marshal(p)
		if err := json.Unmarshal(b, &inst); err != nil {
			t.Fatal(err)
		}
		if err := r.Validate(inst); err != nil {
			t.Errorf("%s: %v\n%s", name, err, b)
		}
		inst.(map[string]any)["files"].([]any)[0].(map[string]any)["extra"] = 1
		if err := r.Validate(inst); err == nil {
			t.Errorf("%s: a file with a field the schema does not know validates", name)
		}
	}
}
