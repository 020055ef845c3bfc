package mcp

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// FuzzArtifactArgs checks the artifact argument decoder: it never panics,
// every error is an invalid_params ToolError, and whatever it accepts has a
// valid resource, exactly one known op with its required fields, a body
// within the limit, and agrees with peekOp.
func FuzzArtifactArgs(f *testing.F) {
	for _, seed := range []string{
		`{"resource":"context","op":{"create":{"path":"a/b","body":"x","description":"d"}}}`,
		`{"resource":"rule","op":{"update":{"id":"p-1","body":"x"}}}`,
		`{"resource":"rule","op":{"rename":{"id":"p-1","new_path":"b.md"}}}`,
		`{"resource":"mpf","op":{"delete":{"id":"META_PROMPT.md"}}}`,
		`{"resource":"context","op":{"discard":{"id":"tmp-context-0123456789ab"}}}`,
		`{"resource":"context","op":{"create":{"path":"a","body":"x"},"discard":{"id":"x"}}}`,
		`{"resource":"context","op":{}}`,
		`{"resource":"page","op":{"discard":{"id":"x"}}}`,
		`{"resource":"rule","op":{"discard":{"id":"x","description":"no"}}}`,
		`{"resource":"rule","op":{"update":{"id":"x","body":null}}}`,
		`{"resource":"rule","resource":"rule","op":{"delete":{"id":"x"}}}`,
		`{"resource":"rule","op":{"delete":{"id":"x"}}} {}`,
		`{"resource":"rule","op":[]}`,
		`{"op":{"delete":{"id":"x"}}}`,
		`[]`, `null`, `"x"`, ``, `{`, `{"resource":1}`,
		`{"resource":"rule","op":{"delete":{"id":"   "}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := decodeArtifact(raw)
		if err != nil {
			var te *ToolError
			if !errors.As(err, &te) || te.Code != events.CodeInvalidParams {
				t.Fatalf("decode %q: got error %v, want an invalid_params ToolError", raw, err)
			}
			return
		}
		if !slices.Contains(resources, a.Resource) {
			t.Fatalf("decode %q: accepted resource %q", raw, a.Resource)
		}
		spec, ok := opFields[a.Op]
		if !ok {
			t.Fatalf("decode %q: accepted op %q", raw, a.Op)
		}
		var top struct {
			Op map[string]json.RawMessage `json:"op"`
		}
		if err := json.Unmarshal(raw, &top); err != nil || len(top.Op) != 1 {
			t.Fatalf("decode %q: accepted an op object with %d keys (%v)", raw, len(top.Op), err)
		}
		if _, ok := top.Op[string(a.Op)]; !ok {
			t.Fatalf("decode %q: op %q is not the key given", raw, a.Op)
		}
		if got := peekOp(raw); got != a.Op {
			t.Fatalf("decode %q: peekOp says %q, decoder %q", raw, got, a.Op)
		}
		values := map[string]string{"id": a.ID, "path": a.Path, "new_path": a.NewPath, "body": a.Body}
		for _, name := range spec.required {
			if values[name] == "" {
				t.Fatalf("decode %q: accepted an empty %s", raw, name)
			}
		}
		if len(a.Body) > MaxBody {
			t.Fatalf("decode %q: accepted a body of %d bytes", raw, len(a.Body))
		}
	})
}
