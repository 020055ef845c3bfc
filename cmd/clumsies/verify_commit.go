package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/clumsies/clumsies/proof/attest"
	"github.com/clumsies/clumsies/proof/commitcheck"
	"github.com/clumsies/clumsies/proof/gitrepo"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// Exit statuses of verify commit (and check), for CI steps.
const (
	exitFailed        = 1 // a check failed: signature, subject, blob ids, ledger or policy
	exitNoAttestation = 3 // a commit has no attestation (and nothing else failed)
)

// VerifyCommitCommand checks commits' attestations.
type VerifyCommitCommand struct {
	m    *Main
	ws   wsFlags
	key  string
	file string
	json bool
}

// commitVerdict is one commit's verification as verify commit --json
// prints it.
type commitVerdict struct {
	attest.Verification
	// Attested is false when the commit has no attestation.
	Attested bool `json:"attested"`
}

// Run implements command.
func (c *VerifyCommitCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("verify commit", "verify commit REV|BASE..HEAD --key PUBFILE [--attestation FILE] [--workspace DIR] [--json]")
	c.ws.register(fs)
	fs.StringVar(&c.key, "key", "", "the public key `PUBFILE` the attestations must be signed with: a PEM public key, an OpenSSH .pub line or allowed-signers lines (any ed25519 key of the file)")
	fs.StringVar(&c.file, "attestation", "", "read the envelopes from `FILE` (.intoto.jsonl, one per line) instead of the git notes on "+notesRef)
	fs.BoolVar(&c.json, "json", false, "print each commit's verification as JSON")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: verify commit takes one REV or BASE..HEAD, got %q (see clumsies verify commit -h)", errUsage, fs.Args())
	}
	keys, err := readPublicKeys(c.key)
	if err != nil {
		return err
	}
	ws, repo, commits, err := openCommits(ctx, &c.ws, fs.Arg(0))
	if err != nil {
		return err
	}
	var fromFile []*dsse.Envelope
	if c.file != "" {
		if fromFile, err = readEnvelopes(c.file); err != nil {
			return err
		}
	}
	e, err := readEvidence(ctx, c.m, &c.ws, ws, repo)
	if err != nil {
		return err
	}
	var out []commitVerdict
	status := 0
	for _, cm := range commits {
		env, err := c.envelope(ctx, repo, cm.ID, fromFile, len(commits) == 1)
		if errors.Is(err, gitrepo.ErrNoNote) {
			out = append(out, commitVerdict{Verification: attest.Verification{Commit: cm.ID, Problems: []string{err.Error() + ": run clumsies attest " + cm.ID[:12] + " --key FILE where the agents worked, and fetch the notes (git fetch origin " + notesRef + ":" + notesRef + ")"}}})
			if status == 0 {
				status = exitNoAttestation
			}
			continue
		}
		if err != nil {
			return err
		}
		t, err := commitcheck.Target(ctx, repo, cm)
		if err != nil {
			return err
		}
		v, err := attest.Verify(ctx, env, keys, t, repo, e)
		if err != nil {
			return err
		}
		if !v.OK {
			status = exitFailed
		}
		out = append(out, commitVerdict{Verification: v, Attested: true})
	}
	if c.json {
		if err := json.NewEncoder(c.m.Stdout).Encode(out); err != nil {
			return err
		}
	} else {
		for _, v := range out {
			printVerdict(c.m, v)
		}
	}
	if status != 0 {
		return errSilent{status}
	}
	return nil
}

func printVerdict(m *Main, v commitVerdict) {
	switch {
	case !v.Attested:
		fmt.Fprintf(m.Stdout, "%s  NO ATTESTATION\n", v.Commit[:12])
	case v.OK:
		chain := ""
		if v.ChainVerified > 0 {
			chain = fmt.Sprintf(" (its chain holds through seq %d)", v.ChainVerified)
		}
		fmt.Fprintf(m.Stdout, "%s  ok  signed by %s, %s, ledger %s%s\n", v.Commit[:12], v.KeyID, tally(v.Predicate.Files), v.Ledger, chain)
	default:
		fmt.Fprintf(m.Stdout, "%s  FAILED\n", v.Commit[:12])
	}
	if v.LedgerNote != "" {
		fmt.Fprintln(m.Stdout, "  note:", v.LedgerNote)
	}
	for _, p := range v.Problems {
		fmt.Fprintln(m.Stdout, "  PROBLEM:", p)
	}
}

// envelope returns the attestation of commit: from the envelopes of
// --attestation (the one whose subject is the commit; the only one, for a
// single commit, so that a mismatch is reported), else its git note.
func (c *VerifyCommitCommand) envelope(ctx context.Context, repo *gitrepo.Repo, commit string, fromFile []*dsse.Envelope, single bool) (*dsse.Envelope, error) {
	if c.file == "" {
		note, err := repo.Note(ctx, notesRef, commit)
		if err != nil {
			return nil, err
		}
		return attest.ReadEnvelope(bytes.TrimSpace(note))
	}
	for _, env := range fromFile {
		if body, err := env.DecodeB64Payload(); err == nil {
			if _, p, err := attest.ParseStatement(body); err == nil && p.Commit == commit {
				return env, nil
			}
		}
	}
	if single && len(fromFile) == 1 {
		return fromFile[0], nil
	}
	return nil, fmt.Errorf("%w in %s for commit %s", gitrepo.ErrNoNote, c.file, commit)
}

// readPublicKeys reads --key for verify commit and check.
func readPublicKeys(file string) ([]ed25519.PublicKey, error) {
	if file == "" {
		return nil, fmt.Errorf("%w: give --key PUBFILE, the public key the attestations are signed with (openssl pkey -in attest.pem -pubout, or the signer's .pub)", errUsage)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("%w: --key: %v", errUsage, err)
	}
	keys, err := attest.ParsePublicKeys(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: --key %s: %v", errUsage, file, err)
	}
	return keys, nil
}

// readEnvelopes reads a .intoto.jsonl file: one DSSE envelope per line.
func readEnvelopes(file string) ([]*dsse.Envelope, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("%w: --attestation: %v", errUsage, err)
	}
	var out []*dsse.Envelope
	for i, line := range bytes.Split(raw, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		env, err := attest.ReadEnvelope(line)
		if err != nil {
			return nil, fmt.Errorf("--attestation %s line %d: %w; want one DSSE envelope per line, as clumsies attest --out writes", file, i+1, err)
		}
		out = append(out, env)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: --attestation %s holds no envelope", errUsage, file)
	}
	return out, nil
}
