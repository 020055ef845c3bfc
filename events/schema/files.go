package schema

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/clumsies/clumsies/events"
	"github.com/google/jsonschema-go/jsonschema"
)

// File names in Files besides the per-type ones.
const (
	EnvelopeFile = "envelope.json"
	FailureFile  = "failure.json"
)

// FileName returns the name of the payload schema file of type t in Files:
// the type followed by .json, such as attest.refer.json.
func FileName(t events.Type) string { return string(t) + ".json" }

// Files returns every schema by file name: EnvelopeFile, FileName(t) for
// each of events.Types(), and FailureFile. The bytes are what
// go run ./events/schema/gen writes to docs/schema.
func Files() (map[string][]byte, error) {
	files := make(map[string][]byte, len(events.Types())+2)
	add := func(name string, s *jsonschema.Schema, err error) error {
		if err != nil {
			return err
		}
		b, err := render(s)
		if err != nil {
			return fmt.Errorf("render %s: %w", name, err)
		}
		files[name] = b
		return nil
	}
	s, err := envelope()
	if err := add(EnvelopeFile, s, err); err != nil {
		return nil, err
	}
	s, err = failure()
	if err := add(FailureFile, s, err); err != nil {
		return nil, err
	}
	for _, t := range events.Types() {
		s, err := payload(t)
		if err := add(FileName(t), s, err); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// render encodes s with two-space indentation and a final newline, with
// $schema, title and description first. The key order is stable:
// jsonschema.Schema writes its keywords in a fixed order and properties in
// the order of the Go struct's fields.
func render(s *jsonschema.Schema) ([]byte, error) {
	head, err := json.Marshal(struct {
		Schema      string `json:"$schema,omitempty"`
		Title       string `json:"title,omitempty"`
		Description string `json:"description,omitempty"`
	}{s.Schema, s.Title, s.Description})
	if err != nil {
		return nil, fmt.Errorf("encode schema %q: %w", s.Title, err)
	}
	rest := *s
	rest.Schema, rest.Title, rest.Description = "", "", ""
	body, err := json.Marshal(rest)
	if err != nil {
		return nil, fmt.Errorf("encode schema %q: %w", s.Title, err)
	}
	if !bytes.HasPrefix(body, []byte("{")) || !bytes.HasSuffix(head, []byte("}")) {
		return nil, fmt.Errorf("encode schema %q: want an object, got %.20s", s.Title, body)
	}
	joined := append(head[:len(head)-1:len(head)-1], ',')
	joined = append(joined, body[1:]...)
	var out bytes.Buffer
	if err := json.Indent(&out, unescapeHTML(joined), "", "  "); err != nil {
		return nil, fmt.Errorf("indent schema %q: %w", s.Title, err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// unescapeHTML undoes encoding/json's escaping of <, > and & in strings,
// which would make the published files harder to read. It copies every
// other escape as it is.
func unescapeHTML(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 == len(b) {
			out = append(out, b[i])
			continue
		}
		if c := htmlEscapes[string(b[i:min(i+6, len(b))])]; c != 0 {
			out = append(out, c)
			i += 5
			continue
		}
		out = append(out, b[i], b[i+1]) // keep the escape pair, so "\\u003c" stays
		i++
	}
	return out
}

var htmlEscapes = map[string]byte{`\u003c`: '<', `\u003e`: '>', `\u0026`: '&'}
