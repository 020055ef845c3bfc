package web

import (
	"fmt"
	"os"
	"path/filepath"
)

// TokenSource is where the bearer token of the HTTP front comes from, in
// order: a token given as is, a file that holds it, none at all, the
// environment's, else the one kept in a state file, made on first use.
// At most one of Token, File and None is set.
type TokenSource struct {
	Token string
	File  string
	None  bool
	// Env is the environment's token, and EnvName how the user names it
	// ("$CLUMSIES_TOKEN").
	Env, EnvName string
	// Keep is the state file that keeps the token when none is given.
	Keep string
}

// Token is the token the HTTP front requires, and where it comes from.
type Token struct {
	Value string
	// Kept is the state file the token was read from or made into; ""
	// when it was given.
	Kept string
	// Given says where a given token is, as a browser step names it: ""
	// when it is shown (given as is, or kept).
	Given string
}

// TokenFileError is the error of a token file that cannot be read: the
// user's to fix.
type TokenFileError struct{ Err error }

func (e *TokenFileError) Error() string { return e.Err.Error() }
func (e *TokenFileError) Unwrap() error { return e.Err }

// Resolve returns the token of s: see TokenSource for the order.
func (s TokenSource) Resolve() (Token, error) {
	switch {
	case s.Token != "":
		return Token{Value: s.Token}, nil
	case s.File != "":
		t, err := ReadTokenFile(s.File)
		if err != nil {
			return Token{}, &TokenFileError{err}
		}
		return Token{Value: t, Given: "the token in " + s.File}, nil
	case s.None:
		return Token{}, nil
	case s.Env != "":
		return Token{Value: s.Env, Given: s.EnvName}, nil
	}
	if err := os.MkdirAll(filepath.Dir(s.Keep), 0o700); err != nil {
		return Token{}, fmt.Errorf("keep the HTTP token: %w", err)
	}
	t, _, err := KeepToken(s.Keep)
	if err != nil {
		return Token{}, fmt.Errorf("keep the HTTP token: %w", err)
	}
	return Token{Value: t, Kept: s.Keep}, nil
}
