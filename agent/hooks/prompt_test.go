package hooks

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/clumsies/clumsies/events"
)

// A prompt is recorded by hash and length; its text only where the
// workspace keeps prompts, cut at a rune boundary when too long.
func TestPromptData(t *testing.T) {
	short := promptData("claude-code", "fix it", false)
	if short.Text != "" || short.Length != 6 || !strings.HasPrefix(short.SHA256, "sha256:") {
		t.Fatalf("a prompt not kept: got %+v", short)
	}
	long := strings.Repeat("é", events.MaxPromptText) // two bytes a rune
	d := promptData("claude-code", "x"+long, true)
	if !d.TextTruncated || len(d.Text) > events.MaxPromptText || !utf8.ValidString(d.Text) || d.Length != 1+len(long) {
		t.Fatalf("a long prompt kept: %d bytes, truncated %v, valid %v, length %d", len(d.Text), d.TextTruncated, utf8.ValidString(d.Text), d.Length)
	}
}
