package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"

	"github.com/clumsies/clumsies/web"
)

// httpTokenFile is the state file that keeps the token of the HTTP
// front when none is given.
const httpTokenFile = "http-token"

// tokenFlags are the flags that say which bearer token the HTTP front of
// serve --http and ui requires: the same on both.
type tokenFlags struct {
	token, file string
	none        bool
}

func (f *tokenFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.token, "token", "", "the bearer token `T` every request must carry; every local user sees it in the process list: prefer --token-file or $"+httpTokenEnv)
	fs.StringVar(&f.file, "token-file", "", "read the bearer token every request must carry from the file at `PATH` (default: $"+httpTokenEnv+", else the token kept in .clumsies/state/"+httpTokenFile+", made on first use)")
	fs.BoolVar(&f.none, "no-token", false, "require no token, on a loopback address only: every local user can then use the server")
}

// httpToken is the token the HTTP front requires, and where it comes from.
type httpToken struct {
	value string
	// kept is the state file the token was read from or made into; ""
	// when it was given.
	kept string
	// given says where a given token is, as the browser step names it:
	// "" when it is shown (given with --token, or kept).
	given string
}

// resolve returns the token: the one of --token (with a warning on
// stderr), --token-file or $CLUMSIES_TOKEN, none with --no-token, else the
// one kept in stateDir/http-token, made on first use.
func (f *tokenFlags) resolve(stderr io.Writer, stateDir string) (httpToken, error) {
	set := 0
	for _, on := range []bool{f.token != "", f.file != "", f.none} {
		if on {
			set++
		}
	}
	if set > 1 {
		return httpToken{}, fmt.Errorf("%w: give one of --token, --token-file and --no-token", errUsage)
	}
	switch {
	case f.token != "":
		warnTokenInArgs(stderr, httpTokenEnv)
		return httpToken{value: f.token}, nil
	case f.file != "":
		t, err := web.ReadTokenFile(f.file)
		if err != nil {
			return httpToken{}, fmt.Errorf("%w: --token-file: %v", errUsage, err)
		}
		return httpToken{value: t, given: "the token in " + f.file}, nil
	case f.none:
		return httpToken{}, nil
	case os.Getenv(httpTokenEnv) != "":
		return httpToken{value: os.Getenv(httpTokenEnv), given: "$" + httpTokenEnv}, nil
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return httpToken{}, fmt.Errorf("keep the HTTP token: %w", err)
	}
	path := filepath.Join(stateDir, httpTokenFile)
	t, _, err := web.KeepToken(path)
	if err != nil {
		return httpToken{}, fmt.Errorf("keep the HTTP token: %w", err)
	}
	return httpToken{value: t, kept: path}, nil
}

// announce says on stderr how to open the server at addr in a browser.
func (t httpToken) announce(stderr io.Writer, addr net.Addr) {
	switch {
	case t.kept != "":
		fmt.Fprintf(stderr, "clumsies: open http://%s/?token=%s in a browser (the token is kept in %s)\n", addr, t.value, t.kept)
	case t.value != "" && t.given == "":
		fmt.Fprintf(stderr, "clumsies: open http://%s/?token=%s once in a browser; it keeps the token as a cookie\n", addr, t.value)
	case t.value != "":
		fmt.Fprintf(stderr, "clumsies: open http://%s/?token=<%s> once in a browser; it keeps the token as a cookie\n", addr, t.given)
	default:
		fmt.Fprintf(stderr, "clumsies: warning: no token (--no-token): every local user can use http://%s/\n", addr)
	}
}

// warnTokenInArgs says on stderr that a token given as --token shows in
// the process list, and what to use instead.
func warnTokenInArgs(stderr io.Writer, env string) {
	fmt.Fprintf(stderr, "clumsies: warning: every local user can read --token in the process list; use --token-file PATH or $%s instead\n", env)
}
