package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"

	"github.com/clumsies/clumsies/views/web"
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

// resolve returns the token: the one of --token (with a warning on
// stderr), --token-file or $CLUMSIES_TOKEN, none with --no-token, else the
// one kept in stateDir/http-token, made on first use (web.TokenSource).
func (f *tokenFlags) resolve(stderr io.Writer, stateDir string) (web.Token, error) {
	set := 0
	for _, on := range []bool{f.token != "", f.file != "", f.none} {
		if on {
			set++
		}
	}
	if set > 1 {
		return web.Token{}, fmt.Errorf("%w: give one of --token, --token-file and --no-token", errUsage)
	}
	if f.token != "" {
		warnTokenInArgs(stderr, httpTokenEnv)
	}
	t, err := web.TokenSource{Token: f.token, File: f.file, None: f.none, Env: os.Getenv(httpTokenEnv), EnvName: "$" + httpTokenEnv,
		Keep: filepath.Join(stateDir, httpTokenFile)}.Resolve()
	var fe *web.TokenFileError
	if errors.As(err, &fe) {
		return web.Token{}, fmt.Errorf("%w: --token-file: %v", errUsage, fe.Err)
	}
	return t, err
}

// announce says on stderr how to open the server at addr, which requires
// t, in a browser.
func announce(stderr io.Writer, t web.Token, addr net.Addr) {
	switch {
	case t.Kept != "":
		fmt.Fprintf(stderr, "clumsies: open http://%s/?token=%s in a browser (the token is kept in %s)\n", addr, t.Value, t.Kept)
	case t.Value != "" && t.Given == "":
		fmt.Fprintf(stderr, "clumsies: open http://%s/?token=%s once in a browser; it keeps the token as a cookie\n", addr, t.Value)
	case t.Value != "":
		fmt.Fprintf(stderr, "clumsies: open http://%s/?token=<%s> once in a browser; it keeps the token as a cookie\n", addr, t.Given)
	default:
		fmt.Fprintf(stderr, "clumsies: warning: no token (--no-token): every local user can use http://%s/\n", addr)
	}
}

// warnTokenInArgs says on stderr that a token given as --token shows in
// the process list, and what to use instead.
func warnTokenInArgs(stderr io.Writer, env string) {
	fmt.Fprintf(stderr, "clumsies: warning: every local user can read --token in the process list; use --token-file PATH or $%s instead\n", env)
}
