package web_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/clumsies/clumsies/views/web"
)

func TestKeepToken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "http-token")
	token, made, err := web.KeepToken(path)
	if err != nil || !made || len(token) != 48 || strings.Trim(token, "0123456789abcdef") != "" {
		t.Fatalf("first KeepToken: %q, made %v, %v; want 48 new hex digits", token, made, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v, %v; want mode 0600", fi.Mode(), err)
	}
	again, made, err := web.KeepToken(path)
	if err != nil || made || again != token {
		t.Fatalf("second KeepToken: %q, made %v, %v; want the kept %q", again, made, err, token)
	}

	t.Run("ReadableByOthers", func(t *testing.T) {
		if err := os.Chmod(path, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(path, 0o600)
		if got, _, err := web.KeepToken(path); err == nil || !strings.Contains(err.Error(), "readable by other users") {
			t.Fatalf("KeepToken of a file with mode 0644: %q, %v; want an error", got, err)
		}
	})
	t.Run("AtOnce", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "http-token")
		tokens := make([]string, 8)
		var wg sync.WaitGroup
		for i := range tokens {
			wg.Go(func() {
				tok, _, err := web.KeepToken(path)
				if err != nil {
					t.Error(err)
				}
				tokens[i] = tok
			})
		}
		wg.Wait()
		for _, tok := range tokens {
			if tok != tokens[0] || tok == "" {
				t.Fatalf("KeepToken at once: got %q, want one token for all", tokens)
			}
		}
	})
	t.Run("EmptyFile", func(t *testing.T) {
		empty := filepath.Join(t.TempDir(), "token")
		if err := os.WriteFile(empty, []byte(" \n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if got, err := web.ReadTokenFile(empty); err == nil {
			t.Fatalf("ReadTokenFile of a blank file: %q, want an error", got)
		}
	})
}
