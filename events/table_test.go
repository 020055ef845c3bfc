package events_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
)

// typeConstants returns the value of every constant of type Type that the
// package's source declares.
func typeConstants(t *testing.T) []events.Type {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []events.Type
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Type" {
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						t.Fatalf("a Type constant's value is not a string literal: %s", fset.Position(v.Pos()))
					}
					s, _ := strconv.Unquote(lit.Value)
					out = append(out, events.Type(s))
				}
			}
		}
	}
	return out
}

// TestTable_EveryTypeConstantIsARow: a Type constant without its row in
// the table, or a row without its constant, would be a type the code
// half knows.
func TestTable_EveryTypeConstantIsARow(t *testing.T) {
	consts := typeConstants(t)
	if len(consts) == 0 {
		t.Fatal("found no Type constant in the package's source")
	}
	// The hub's catalog types share their names with the workspace's: a
	// name is declared as often as it has rows, one in each ledger.
	rows, declared := map[events.Type]int{}, map[events.Type]int{}
	for _, typ := range append(events.Types(), events.HubTypes()...) {
		rows[typ]++
	}
	for _, typ := range consts {
		declared[typ]++
	}
	for typ, n := range declared {
		if rows[typ] != n {
			t.Errorf("%s is declared %d times and has %d rows in the table", typ, n, rows[typ])
		}
	}
	for typ, n := range rows {
		if declared[typ] == 0 {
			t.Errorf("%s has %d rows and no Type constant", typ, n)
		}
	}
}

// TestTable_RowsAreWhole: every row has a payload that survives the codec
// and says what its events record.
func TestTable_RowsAreWhole(t *testing.T) {
	for _, typ := range events.Types() {
		if !typ.Valid() {
			t.Errorf("%s is listed but not valid", typ)
		}
		if typ.Title() == "" || typ.Description() == "" {
			t.Errorf("%s: title %q, description %q: want both", typ, typ.Title(), typ.Description())
		}
		p, ok := events.NewPayload(typ)
		if !ok || reflect.TypeOf(p).Kind() != reflect.Pointer {
			t.Errorf("%s: payload %T, want a pointer", typ, p)
			continue
		}
		fill(reflect.ValueOf(p).Elem())
		ev, err := events.New(eventstest.WorkspaceID, typ, p)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		b, err := events.Encode(ev)
		if err != nil {
			t.Fatalf("encode %s: %v", typ, err)
		}
		back, err := events.Decode(b)
		if err != nil {
			t.Fatalf("decode %s: %v", typ, err)
		}
		got, err := back.Payload()
		if err != nil {
			t.Fatalf("payload of %s: %v", typ, err)
		}
		if !reflect.DeepEqual(got, p) {
			t.Errorf("%s: payload round trip got %#v, want %#v", typ, got, p)
		}
	}
}

// fill sets every field of v to a value that is not its zero value, so
// that a field the codec loses shows.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x-" + v.Type().Name())
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint64:
		v.SetUint(9)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i))
		}
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			v.SetBytes([]byte(`{"a":1}`))
			return
		}
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0))
		v.Set(s)
	}
}

// TestTable_HubRowsAreWhole: every type of the hub's ledger has a
// payload that survives JSON, and every review outcome of the hub is
// recorded as a review type of the workspace.
func TestTable_HubRowsAreWhole(t *testing.T) {
	outcomes := 0
	for _, typ := range events.HubTypes() {
		p, ok := events.NewHubPayload(typ)
		if !ok || reflect.TypeOf(p).Kind() != reflect.Pointer {
			t.Errorf("%s: payload %T, want a pointer", typ, p)
			continue
		}
		fill(reflect.ValueOf(p).Elem())
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		back, _ := events.NewHubPayload(typ)
		if err := json.Unmarshal(b, back); err != nil || !reflect.DeepEqual(back, p) {
			t.Errorf("%s: payload round trip got %#v (%v), want %#v", typ, back, err, p)
		}
		if rec, ok := events.HubOutcome(typ); ok {
			outcomes++
			if !rec.IsReview() {
				t.Errorf("%s is recorded as %q, not a review type", typ, rec)
			}
		}
	}
	if outcomes == 0 {
		t.Error("no type of the hub's ledger is a review outcome")
	}
}

// TestTable_DraftOps: every artifact operation is recorded by one type,
// which knows the operation back.
func TestTable_DraftOps(t *testing.T) {
	for _, op := range events.DraftOps() {
		typ := op.EventType()
		if !typ.IsTool() || !typ.IsDraft() || typ.DraftOp() != op {
			t.Errorf("%s: recorded as %q, whose op is %q", op, typ, typ.DraftOp())
		}
	}
	if typ := events.DraftOp("").EventType(); typ != "" {
		t.Errorf("the empty op is recorded as %q, want none", typ)
	}
}
