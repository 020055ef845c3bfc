package web_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/clumsies/clumsies/views/web"
)

// A token comes from the first source set: given, its file, none, the
// environment, else the state file, made (with its folder) on first use
// and read after; a token file that cannot be read is the user's error.
func TestTokenSource(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "token")
	if err := os.WriteFile(file, []byte(" from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(dir, "state", "http-token")
	env := web.TokenSource{Env: "from-env", EnvName: "$CLUMSIES_TOKEN", Keep: keep}
	cases := []struct {
		name string
		src  web.TokenSource
		want web.Token
	}{
		{"given", web.TokenSource{Token: "given", Env: "from-env", Keep: keep}, web.Token{Value: "given"}},
		{"file", web.TokenSource{File: file, Env: "from-env", Keep: keep}, web.Token{Value: "from-file", Given: "the token in " + file}},
		{"none", web.TokenSource{None: true, Env: "from-env", Keep: keep}, web.Token{}},
		{"env", env, web.Token{Value: "from-env", Given: "$CLUMSIES_TOKEN"}},
	}
	for _, c := range cases {
		if got, err := c.src.Resolve(); err != nil || got != c.want {
			t.Errorf("%s: got %+v, %v, want %+v", c.name, got, err, c.want)
		}
	}
	if _, err := os.Stat(keep); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a given token made the state file: %v", err)
	}
	made, err := web.TokenSource{Keep: keep}.Resolve()
	if err != nil || made.Value == "" || made.Kept != keep || made.Given != "" {
		t.Fatalf("no token given: %+v, %v, want one made and kept in %s", made, err, keep)
	}
	if again, err := (web.TokenSource{Keep: keep}).Resolve(); err != nil || again != made {
		t.Fatalf("again: %+v, %v, want the kept %+v", again, err, made)
	}
	_, err = web.TokenSource{File: filepath.Join(dir, "missing")}.Resolve()
	var fe *web.TokenFileError
	if !errors.As(err, &fe) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing token file: %v, want a TokenFileError", err)
	}
}
