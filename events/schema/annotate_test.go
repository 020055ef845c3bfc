package schema

import (
	"reflect"
	"strings"
	"testing"
)

func TestInfer_UndocumentedField(t *testing.T) {
	type undocumented struct {
		Name string `json:"name"`
	}
	_, err := infer(reflect.TypeFor[undocumented](), about{"t", "d"})
	if err == nil || !strings.Contains(err.Error(), "property name") {
		t.Errorf("got error %v, want one naming the undocumented property", err)
	}
}

func TestUnescapeHTML(t *testing.T) {
	for in, want := range map[string]string{
		`"\u003ctype\u003e.json"`: `"<type>.json"`,
		`"a \u0026 b"`:            `"a & b"`,
		`"\\u003c"`:               `"\\u003c"`,
		`"\n\u00e9"`:              `"\n\u00e9"`,
	} {
		if got := string(unescapeHTML([]byte(in))); got != want {
			t.Errorf("unescapeHTML(%s): got %s, want %s", in, got, want)
		}
	}
}
