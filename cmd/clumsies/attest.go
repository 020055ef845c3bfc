package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"os"

	"github.com/clumsies/clumsies/proof/attest"
	"github.com/clumsies/clumsies/proof/commitcheck"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// AttestCommand signs what the ledger says of commits.
type AttestCommand struct {
	m      *Main
	ws     wsFlags
	key    string
	out    string
	noNote bool
	json   bool
}

// attested is one commit's attestation as attest --json prints it.
type attested struct {
	Commit    string           `json:"commit"`
	Note      string           `json:"note,omitempty"`
	KeyID     string           `json:"keyId"`
	Predicate attest.Predicate `json:"predicate"`
	Envelope  *dsse.Envelope   `json:"envelope"`
}

// Run implements command.
func (c *AttestCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("attest", "attest [REV | BASE..HEAD] --key FILE [--out FILE] [--no-note] [--workspace DIR] [--json]")
	c.ws.register(fs)
	fs.StringVar(&c.key, "key", "", "the ed25519 private key `FILE` to sign with: PKCS#8 PEM (openssl genpkey -algorithm ed25519) or OpenSSH (ssh-keygen -t ed25519), without a passphrase")
	fs.StringVar(&c.out, "out", "", "also write the envelopes to `FILE`, one JSON line each (.intoto.jsonl)")
	fs.BoolVar(&c.noNote, "no-note", false, "do not store the attestations as git notes on "+notesRef)
	fs.BoolVar(&c.json, "json", false, "print each commit's predicate and envelope as JSON")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	rev := "HEAD"
	switch fs.NArg() {
	case 0:
	case 1:
		rev = fs.Arg(0)
	default:
		return fmt.Errorf("%w: attest takes one REV or BASE..HEAD, got %q (see clumsies attest -h)", errUsage, fs.Args())
	}
	if c.key == "" {
		return fmt.Errorf("%w: attest needs --key FILE, an ed25519 private key (make one with: openssl genpkey -algorithm ed25519 -out attest.pem)", errUsage)
	}
	raw, err := os.ReadFile(c.key)
	if err != nil {
		return fmt.Errorf("%w: --key: %v", errUsage, err)
	}
	key, err := attest.ParsePrivateKey(raw)
	if err != nil {
		return fmt.Errorf("%w: --key %s: %v", errUsage, c.key, err)
	}
	ws, repo, commits, err := openCommits(ctx, &c.ws, rev)
	if err != nil {
		return err
	}
	e, err := readEvidence(ctx, c.m, &c.ws, ws, repo)
	if err != nil {
		return err
	}
	if e == nil {
		return fmt.Errorf("the workspace in %s has no ledger here (no %s): attest where the agents worked, then push the notes (git push origin %s)", ws.Root, ws.StateDir(), notesRef)
	}
	if st, ok := e.Chain(); ok && st.Problem != nil {
		return fmt.Errorf("the ledger's hash chain does not hold at %s: attest signs nothing a damaged ledger says; run clumsies verify", st.Problem)
	}
	var lines bytes.Buffer
	var all []attested
	for _, cm := range commits {
		t, err := commitcheck.Target(ctx, repo, cm)
		if err != nil {
			return err
		}
		p := attest.Attribute(e, t)
		env, err := attest.Sign(ctx, p, key)
		if err != nil {
			return err
		}
		line, err := json.Marshal(env)
		if err != nil {
			return err
		}
		lines.Write(append(line, '\n'))
		a := attested{Commit: cm.ID, KeyID: attest.KeyID(key.Public().(ed25519.PublicKey)), Predicate: p, Envelope: env}
		if !c.noNote {
			if err := repo.AddNote(ctx, notesRef, cm.ID, line); err != nil {
				return err
			}
			a.Note = notesRef
		}
		all = append(all, a)
	}
	if c.out != "" {
		if err := os.WriteFile(c.out, lines.Bytes(), 0o644); err != nil {
			return fmt.Errorf("write --out: %w", err)
		}
	}
	if c.json {
		return json.NewEncoder(c.m.Stdout).Encode(all)
	}
	for _, a := range all {
		fmt.Fprintf(c.m.Stdout, "%s  %s  signed by %s%s\n", a.Commit[:12], tally(a.Predicate.Files), a.KeyID, noteWhere(a.Note))
		for _, n := range a.Predicate.Notes {
			fmt.Fprintln(c.m.Stdout, "  note:", n)
		}
	}
	return nil
}

// tally counts files by who wrote them.
func tally(files []attest.File) string {
	n := map[string]int{}
	for _, f := range files {
		n[f.By]++
	}
	noun := "files"
	if len(files) == 1 {
		noun = "file"
	}
	return fmt.Sprintf("%d %s: %d agent, %d mixed, %d human", len(files), noun, n[attest.ByAgent], n[attest.ByMixed], n[attest.ByHuman])
}

func noteWhere(ref string) string {
	if ref == "" {
		return ""
	}
	return ", note on " + ref
}
