package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// fill sets every field of v to a value that is not its zero value.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint64, reflect.Uint32:
		v.SetUint(1)
	case reflect.Float64:
		v.SetFloat(1)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			v.SetBytes([]byte(`{}`))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k)
		fill(e)
		v.SetMapIndex(k, e)
	}
}

// Every type of event, the hooks' included, has a summary in `clumsies
// events`: none prints a blank one.
func TestSummarize_EveryType(t *testing.T) {
	for _, typ := range events.Types() {
		p, ok := events.NewPayload(typ)
		if !ok {
			t.Fatalf("%s: no payload type", typ)
		}
		fill(reflect.ValueOf(p).Elem())
		ev, err := events.New("ws-0123", typ, p)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		if s := summarize(ev); strings.TrimSpace(s) == "" {
			t.Errorf("%s: blank summary", typ)
		}
	}
}
