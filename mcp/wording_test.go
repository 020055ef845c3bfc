package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// errorField finds the error messages of the answers in a transcript.
var errorField = regexp.MustCompile(`"error": ("(?:[^"\\]|\\.)*")`)

// TestErrorMessages_Lowercase checks, over every error answer of the
// golden transcripts, that messages read alike: they start in lower case
// (or with a quoted name), as Go error strings do, except those whose text
// the wire contract fixes.
func TestErrorMessages_Lowercase(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden transcripts (%v)", err)
	}
	seen := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range errorField.FindAllSubmatch(b, -1) {
			var msg string
			if err := json.Unmarshal(m[1], &msg); err != nil {
				t.Fatalf("%s: %s: %v", f, m[1], err)
			}
			seen++
			if contractMessage(msg) {
				continue
			}
			if r, _ := utf8.DecodeRuneInString(msg); unicode.IsUpper(r) {
				t.Errorf("%s: error %q starts with a capital", f, msg)
			}
		}
	}
	if seen < 10 {
		t.Fatalf("found %d error messages in the transcripts, want many", seen)
	}
}

// contractMessage reports whether msg starts with a text the wire contract
// fixes (see msgUnknownRuleID).
func contractMessage(msg string) bool {
	return strings.HasPrefix(msg, strings.TrimSuffix(msgUnknownRuleID, "%s"))
}
