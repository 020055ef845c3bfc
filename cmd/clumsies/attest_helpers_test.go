package main_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

// gitIn runs git in dir (as git does) and returns its trimmed output.
func gitIn(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	return strings.TrimSpace(git(tb, dir, args...))
}

// gitInit makes dir a git repository with main as its branch and an
// identity of its own (notes are commits too); it skips tb when git is not
// installed.
func gitInit(tb testing.TB, dir string) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git is not installed: attestations are of git commits")
	}
	gitIn(tb, dir, "init", "-q", "-b", "main")
	gitIn(tb, dir, "config", "user.name", "Dev")
	gitIn(tb, dir, "config", "user.email", "dev@example.com")
	gitIn(tb, dir, "config", "commit.gpgsign", "false")
}

// signingKey is a key pair in files: the private key, its public key and
// how they were made.
type signingKey struct {
	priv, pub, how string
}

// opensslKey writes an ed25519 key with `openssl genpkey` (PKCS#8 PEM) and
// its public key with `openssl pkey -pubout`, or, without openssl, the
// same formats with Go's crypto.
func opensslKey(tb testing.TB, dir, name string) signingKey {
	tb.Helper()
	k := signingKey{priv: filepath.Join(dir, name+".pem"), pub: filepath.Join(dir, name+".pub.pem"), how: "openssl"}
	if _, err := exec.LookPath("openssl"); err == nil {
		for _, args := range [][]string{
			{"genpkey", "-algorithm", "ed25519", "-out", k.priv},
			{"pkey", "-in", k.priv, "-pubout", "-out", k.pub},
		} {
			if out, err := exec.Command("openssl", args...).CombinedOutput(); err != nil {
				tb.Fatalf("openssl %s: %v\n%s", strings.Join(args, " "), err, out)
			}
		}
		return k
	}
	tb.Log("openssl is not installed: writing the PKCS#8 PEM key with Go's crypto")
	k.how = "go-pkcs8"
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	p8, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		tb.Fatal(err)
	}
	spki, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		tb.Fatal(err)
	}
	writeFile(tb, k.priv, string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: p8})))
	writeFile(tb, k.pub, string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: spki})))
	return k
}

// sshKey writes an OpenSSH ed25519 key with `ssh-keygen -t ed25519` (no
// passphrase) and its .pub, or, without ssh-keygen, the same formats with
// Go's crypto.
func sshKey(tb testing.TB, dir, name string) signingKey {
	tb.Helper()
	k := signingKey{priv: filepath.Join(dir, name), pub: filepath.Join(dir, name+".pub"), how: "ssh-keygen"}
	if _, err := exec.LookPath("ssh-keygen"); err == nil {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "dev@example.com", "-f", k.priv).CombinedOutput(); err != nil {
			tb.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
		return k
	}
	tb.Log("ssh-keygen is not installed: writing the OpenSSH key with Go's crypto")
	k.how = "go-openssh"
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, err := ssh.MarshalPrivateKey(priv, "dev@example.com")
	if err != nil {
		tb.Fatal(err)
	}
	spub, err := ssh.NewPublicKey(pub)
	if err != nil {
		tb.Fatal(err)
	}
	writeFile(tb, k.priv, string(pem.EncodeToMemory(block)))
	writeFile(tb, k.pub, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(spub)))+" dev@example.com\n")
	return k
}
