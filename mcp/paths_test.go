package mcp

import (
	"encoding/json"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// TestArtifact_LookAlikePaths: paths that JSON decoding would merge
// (invalid UTF-8 and lone surrogates both become U+FFFD) or that pass for
// another path (bidi overrides, zero-width characters, fullwidth letters,
// mixed scripts) are refused with unsafe_path, as sent over the wire.
func TestArtifact_LookAlikePaths(t *testing.T) {
	e := newEnv(t, envOptions{})
	c := e.connect()
	setup(t, c, "paths")
	for name, path := range map[string]string{
		"LoneSurrogate":   `"go/\ud800x"`,
		"OtherSurrogate":  `"go/\udbffx"`,
		"InvalidUTF8":     "\"go/\xffx\"",
		"BidiOverride":    `"go/evil\u202egpj"`,
		"ZeroWidth":       `"go/STY\u200bLE"`,
		"Fullwidth":       `"go/\uff33TYLE"`,
		"CyrillicInLatin": `"go/p\u0430ypal"`,
	} {
		t.Run(name, func(t *testing.T) {
			args := json.RawMessage(`{"resource":"rule","op":{"create":{"path":` + path + `,"body":"# x\n"}}}`)
			mustFail(t, c, "artifact", args, events.CodeUnsafePath)
		})
	}
	// Nothing was created: a plain path is still free.
	mustOK(t, c, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"create": map[string]any{"path": "go/x", "body": "# x\n"}}})
}
