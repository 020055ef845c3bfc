package frame

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/content"
)

func TestInstructions(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		readOnly   bool
		want       string
	}{
		{"the META_PROMPT as it is", "# Ours\n", false, "# Ours\n"},
		{"no META_PROMPT: the protocol summary", "", false, Summary},
		{"a blank META_PROMPT: the protocol summary", " \n\t\n", false, Summary},
		{"read-only: the notice after the frame", "# Ours\n\n", true, "# Ours" + readOnlyNotice},
		{"read-only without a META_PROMPT", "", true, strings.TrimRight(Summary, "\n") + readOnlyNotice},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Instructions(tc.body, tc.readOnly); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRead(t *testing.T) {
	root := t.TempDir()
	if body, err := Read(root); body != "" || err != nil {
		t.Fatalf("no META_PROMPT: %q, %v", body, err)
	}
	if err := os.WriteFile(filepath.Join(root, content.MetaPromptPath), []byte("# Frame\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if body, err := Read(root); body != "# Frame\n" || err != nil {
		t.Fatalf("got %q, %v", body, err)
	}
	if err := os.Chmod(filepath.Join(root, content.MetaPromptPath), 0); err == nil && os.Geteuid() != 0 {
		if _, err := Read(root); err == nil {
			t.Fatal("an unreadable META_PROMPT is no error")
		}
	}
}
