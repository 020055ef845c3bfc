package web

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ReadTokenFile returns the token in the file at path: its content
// without the surrounding white space, which must leave something.
func ReadTokenFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read the token file: %w", err)
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", fmt.Errorf("the token file %s is empty", path)
	}
	return token, nil
}

// KeepToken returns the token kept in the file at path, and makes one
// first when there is none: 24 random bytes in hex, written with mode
// 0600 (made reports that it was). A file that other users can read is
// refused, its token being no secret. Two processes that start at once
// get the same token: the file is written whole under another name, then
// linked into place only if nothing is there yet.
func KeepToken(path string) (token string, made bool, err error) {
	if token, err := keptToken(path); !errors.Is(err, os.ErrNotExist) {
		return token, false, err
	}
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", false, fmt.Errorf("make a token: %w", err)
	}
	token = hex.EncodeToString(b)
	tmp, err := writeTemp(path, token+"\n")
	if err != nil {
		return "", false, fmt.Errorf("write the token file: %w", err)
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); errors.Is(err, os.ErrExist) {
		token, err := keptToken(path)
		return token, false, err
	} else if err != nil {
		return "", false, fmt.Errorf("write the token file: %w", err)
	}
	return token, true, nil
}

// keptToken reads the token file of KeepToken; it wraps os.ErrNotExist
// when there is none.
func keptToken(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("read the token file: %w", err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return "", fmt.Errorf("the token file %s has mode %04o, readable by other users: remove it (a new token is made) or run `chmod 600 %s`", path, perm, filepath.Clean(path))
	}
	return ReadTokenFile(path)
}

// writeTemp writes content to a new file of mode 0600 beside path and
// returns its name.
func writeTemp(path, content string) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}
