package attest

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/crypto/ssh"
)

// ErrKey means a key file holds no ed25519 key this package reads.
var ErrKey = errors.New("attest: not an ed25519 key")

// ParsePrivateKey reads an ed25519 private key: PKCS#8 PEM ("PRIVATE
// KEY", as `openssl genpkey -algorithm ed25519` writes it) or an OpenSSH
// private key (`ssh-keygen -t ed25519`), without a passphrase.
func ParsePrivateKey(b []byte) (ed25519.PrivateKey, error) {
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, fmt.Errorf("%w: no PEM block; want a PKCS#8 PEM (openssl genpkey -algorithm ed25519) or OpenSSH (ssh-keygen -t ed25519) private key", ErrKey)
	}
	switch block.Type {
	case "PRIVATE KEY":
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrKey, err)
		}
		if ed, ok := k.(ed25519.PrivateKey); ok {
			return ed, nil
		}
		return nil, fmt.Errorf("%w: the PKCS#8 key is a %T", ErrKey, k)
	case "OPENSSH PRIVATE KEY":
		k, err := ssh.ParseRawPrivateKey(b)
		var missing *ssh.PassphraseMissingError
		if errors.As(err, &missing) {
			return nil, fmt.Errorf("%w: the OpenSSH key is protected by a passphrase; give a key without one (a dedicated signing key)", ErrKey)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrKey, err)
		}
		if ed, ok := k.(*ed25519.PrivateKey); ok {
			return *ed, nil
		}
		return nil, fmt.Errorf("%w: the OpenSSH key is a %T", ErrKey, k)
	}
	if block.Type == "PUBLIC KEY" {
		return nil, fmt.Errorf("%w: this is a public key; sign with the private key it was made from", ErrKey)
	}
	return nil, fmt.Errorf("%w: a PEM block of type %q; want PRIVATE KEY or OPENSSH PRIVATE KEY", ErrKey, block.Type)
}

// ParsePublicKeys reads the ed25519 public keys of a file: a PEM public
// key ("PUBLIC KEY", as `openssl pkey -pubout` writes it), OpenSSH public
// key lines (`ssh-ed25519 AAAA... comment`, as in a .pub file) or
// allowed-signers lines (`principal [options] ssh-ed25519 AAAA...`, as
// git's gpg.ssh.allowedSignersFile holds them). Lines of other key types
// and comments are skipped; a file with no ed25519 key is an error.
func ParsePublicKeys(b []byte) ([]ed25519.PublicKey, error) {
	if block, _ := pem.Decode(b); block != nil {
		if block.Type == "PRIVATE KEY" || block.Type == "OPENSSH PRIVATE KEY" {
			return nil, fmt.Errorf("%w: this is a private key; give its public key (openssl pkey -in KEY -pubout, or the .pub file ssh-keygen wrote beside it)", ErrKey)
		}
		if block.Type != "PUBLIC KEY" {
			return nil, fmt.Errorf("%w: a PEM block of type %q; want PUBLIC KEY (openssl pkey -pubout)", ErrKey, block.Type)
		}
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrKey, err)
		}
		if ed, ok := k.(ed25519.PublicKey); ok {
			return []ed25519.PublicKey{ed}, nil
		}
		return nil, fmt.Errorf("%w: the PEM public key is a %T", ErrKey, k)
	}
	var keys []ed25519.PublicKey
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		// An allowed-signers line puts principals (and options) first.
		i := strings.Index(line, ssh.KeyAlgoED25519+" ")
		if i < 0 {
			continue
		}
		pk, _, _, _, err := ssh.ParseAuthorizedKey([]byte(line[i:]))
		if err != nil {
			return nil, fmt.Errorf("%w: %q: %v", ErrKey, cut(line, 60), err)
		}
		if cpk, ok := pk.(ssh.CryptoPublicKey); ok {
			// A key listed for several principals counts once.
			if ed, ok := cpk.CryptoPublicKey().(ed25519.PublicKey); ok && !slices.ContainsFunc(keys, func(k ed25519.PublicKey) bool { return k.Equal(ed) }) {
				keys = append(keys, ed)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the public key file: %w", err)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w: no PEM public key and no ssh-ed25519 line; want a PEM public key, an OpenSSH .pub line or an allowed-signers line", ErrKey)
	}
	return keys, nil
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
