package adapt

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
)

// obj is a JSON object whose members keep the order they are written in.
type obj []kv

// kv is one member of an obj.
type kv struct {
	K string
	V any
}

// render writes v as JSON. Objects and arrays open a line per member at
// indent+unit, unless compact.
func render(v any, indent, unit string, compact bool) string {
	var b strings.Builder
	writeValue(&b, v, indent, unit, compact)
	return b.String()
}

func writeValue(b *strings.Builder, v any, indent, unit string, compact bool) {
	inner := indent + unit
	switch v := v.(type) {
	case obj:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, m := range v {
			writeSep(b, i, inner, compact)
			b.WriteString(quote(m.K) + ": ")
			writeValue(b, m.V, inner, unit, compact)
		}
		if !compact {
			b.WriteString("\n" + indent)
		}
		b.WriteByte('}')
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v {
			writeSep(b, i, inner, compact)
			writeValue(b, e, inner, unit, compact)
		}
		if !compact {
			b.WriteString("\n" + indent)
		}
		b.WriteByte(']')
	case string:
		b.WriteString(quote(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case []string:
		a := make([]any, len(v))
		for i, s := range v {
			a[i] = s
		}
		writeValue(b, a, indent, unit, compact)
	default:
		panic("adapt: cannot render " + reflect.TypeOf(v).String())
	}
}

// quote renders s as a JSON string without HTML escaping.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// sameJSON reports whether raw, a JSON text, holds the same value as v.
// Text that standard JSON cannot read (a comment inside) is never the same.
func sameJSON(raw []byte, v any) bool {
	var a, b any
	if err := json.Unmarshal(raw, &a); err != nil {
		return false
	}
	if err := json.Unmarshal([]byte(render(v, "", "", true)), &b); err != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

// writeSep writes what comes before item i of an object or an array:
// a comma after the first, then a space when compact or a new line at
// inner's indent when not.
func writeSep(b *strings.Builder, i int, inner string, compact bool) {
	if i > 0 {
		b.WriteByte(',')
	}
	switch {
	case !compact:
		b.WriteString("\n" + inner)
	case i > 0:
		b.WriteByte(' ')
	}
}
