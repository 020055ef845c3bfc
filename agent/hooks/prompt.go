package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"unicode/utf8"

	"github.com/clumsies/clumsies/events"
)

// promptData is the payload of a user prompt: its hash and length, and its
// text (cut at a rune boundary) when the workspace keeps prompts.
func promptData(host, prompt string, keepText bool) events.UserPromptData {
	sum := sha256.Sum256([]byte(prompt))
	d := events.UserPromptData{Host: host, SHA256: "sha256:" + hex.EncodeToString(sum[:]), Length: len(prompt)}
	if keepText {
		d.Text = prompt
		if len(d.Text) > events.MaxPromptText {
			cut := events.MaxPromptText
			for cut > 0 && !utf8.RuneStart(d.Text[cut]) {
				cut--
			}
			d.Text, d.TextTruncated = d.Text[:cut], true
		}
	}
	return d
}
