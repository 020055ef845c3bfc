package attest_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/clumsies/clumsies/proof/attest"
)

func TestSign_Open(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	other, _, _ := ed25519.GenerateKey(rand.Reader)
	p := attest.Predicate{WorkspaceID: ws, Commit: strings.Repeat("a", 40), Files: []attest.File{
		{Path: "x.go", Blob: strings.Repeat("b", 40), By: attest.ByAgent, Edits: []attest.Edit{{Seq: 7, Rules: []attest.RuleState{}, Gate: []attest.GateDecision{}}}},
		{Path: "y.go", Blob: strings.Repeat("c", 40), By: attest.ByHuman, Edits: []attest.Edit{}},
	}, Sessions: []attest.Session{}, Notes: []string{}}
	env, err := attest.Sign(context.Background(), p, priv)
	if err != nil {
		t.Fatal(err)
	}
	st, got, id, err := attest.Open(context.Background(), env, []ed25519.PublicKey{other, pub})
	if err != nil || id != attest.KeyID(pub) {
		t.Fatalf("open with the right key among others: %v, key id %q", err, id)
	}
	if len(st.Subject) != 2 || st.Subject[0].Name != attest.CommitSubject || st.Subject[1].Name != "x.go" || st.Subject[1].Digest["gitBlob"] != p.Files[0].Blob {
		t.Fatalf("subjects: got %v, want the commit and the agent's file only", st.Subject)
	}
	if got.Files[0].Edits[0].Seq != 7 || got.Commit != p.Commit {
		t.Fatalf("predicate: got %+v", got)
	}
	if _, _, _, err := attest.Open(context.Background(), env, []ed25519.PublicKey{other}); !errors.Is(err, attest.ErrSignature) {
		t.Fatalf("another key: got %v, want ErrSignature", err)
	}
	bad := *env
	body, _ := base64.StdEncoding.DecodeString(env.Payload)
	bad.Payload = base64.StdEncoding.EncodeToString([]byte(strings.Replace(string(body), `"human"`, `"agent"`, 1)))
	if _, _, _, err := attest.Open(context.Background(), &bad, []ed25519.PublicKey{pub}); !errors.Is(err, attest.ErrSignature) {
		t.Fatalf("a changed payload: got %v, want ErrSignature", err)
	}
	bad = *env
	bad.PayloadType = "application/json"
	if _, _, _, err := attest.Open(context.Background(), &bad, []ed25519.PublicKey{pub}); !errors.Is(err, attest.ErrStatement) {
		t.Fatalf("another payload type: got %v, want ErrStatement", err)
	}
}

func TestParseKeys(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	p8, _ := x509.MarshalPKCS8PrivateKey(priv)
	spki, _ := x509.MarshalPKIXPublicKey(pub)
	block, _ := ssh.MarshalPrivateKey(priv, "me")
	spub, _ := ssh.NewPublicKey(pub)
	line := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(spub)))
	for name, b := range map[string][]byte{
		"pkcs8":   pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: p8}),
		"openssh": pem.EncodeToMemory(block),
	} {
		k, err := attest.ParsePrivateKey(b)
		if err != nil || !k.Equal(priv) {
			t.Errorf("private %s: got %v", name, err)
		}
	}
	for name, b := range map[string]string{
		"pem":             string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: spki})),
		"pub line":        line + " me@example.com\n",
		"allowed signers": "# team\nssh-rsa AAAAB3 old@example.com\nme@example.com,you@example.com namespaces=\"git\" " + line + "\nthem@example.com " + line + "\n",
	} {
		ks, err := attest.ParsePublicKeys([]byte(b))
		if err != nil || len(ks) != 1 || !ks[0].Equal(pub) {
			t.Errorf("public %s: got %v, %v", name, ks, err)
		}
	}
	for name, b := range map[string]string{
		"nothing":           "# no key\n",
		"private as public": string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: p8})),
		"garbage ed25519":   "ssh-ed25519 !!!\n",
	} {
		if _, err := attest.ParsePublicKeys([]byte(b)); !errors.Is(err, attest.ErrKey) {
			t.Errorf("public %s: got %v, want ErrKey", name, err)
		}
	}
	for name, b := range map[string]string{
		"public as private": string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: spki})),
		"a .pub line":       line,
	} {
		if _, err := attest.ParsePrivateKey([]byte(b)); !errors.Is(err, attest.ErrKey) {
			t.Errorf("private %s: got %v, want ErrKey", name, err)
		}
	}
}
