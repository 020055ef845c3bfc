package main

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/clumsies/clumsies/proof/attest"
	"github.com/clumsies/clumsies/proof/commitcheck"
	"github.com/clumsies/clumsies/proof/gitrepo"
)

// CheckCommand judges a range of commits against the workspace's policy.
type CheckCommand struct {
	m    *Main
	ws   wsFlags
	key  string
	json bool
}

// Run implements command. It exits with status 1 when the policy fails.
func (c *CheckCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("check", "check BASE..HEAD [--key PUBFILE] [--workspace DIR] [--json]")
	c.ws.register(fs)
	fs.StringVar(&c.key, "key", "", "judge the commits' attestations (git notes on "+notesRef+") signed with the public key `PUBFILE`, instead of this workspace's ledger (what a CI checkout does)")
	fs.BoolVar(&c.json, "json", false, "print the result as JSON instead of the Markdown summary")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 || !strings.Contains(fs.Arg(0), "..") {
		return fmt.Errorf("%w: check takes one BASE..HEAD, such as origin/main..HEAD, got %q (see clumsies check -h)", errUsage, fs.Args())
	}
	ws, repo, commits, err := openCommits(ctx, &c.ws, fs.Arg(0))
	if err != nil {
		return err
	}
	ch, err := commitcheck.Resolve(ctx, repo, fs.Arg(0))
	if errors.Is(err, gitrepo.ErrUnknownRev) {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if err != nil {
		return err
	}
	var r attest.Result
	if c.key != "" {
		keys, err := readPublicKeys(c.key)
		if err != nil {
			return err
		}
		files, sessions, err := attestedFiles(ctx, repo, commits, keys, ch.Target)
		if err != nil {
			return err
		}
		r = attest.Check(ch.Base.ID, ch.Head.ID, string(ws.Config.Enforce.Effective()), "attestations", files, sessions)
		if err := commitcheck.AddRuleFindings(ctx, ws, repo, ch.Base.ID, ch.Head.ID, &r); err != nil {
			return err
		}
	} else {
		e, err := readEvidence(ctx, c.m, &c.ws, ws, repo)
		if err != nil {
			return err
		}
		if e == nil {
			return fmt.Errorf("%w: the workspace in %s has no ledger here: give --key PUBFILE to judge the commits' signed attestations (fetch them with git fetch origin %s:%s)", errUsage, ws.Root, notesRef, notesRef)
		}
		if r, err = commitcheck.Judge(ctx, ws, repo, e, ch); err != nil {
			return err
		}
	}
	if c.json {
		err = json.NewEncoder(c.m.Stdout).Encode(r)
	} else {
		err = attest.Markdown(c.m.Stdout, r)
	}
	if err != nil {
		return err
	}
	if !r.OK {
		return errSilent{exitFailed}
	}
	return nil
}

// attestedFiles reads and verifies the attestation of each commit and
// returns, for each file the range changes, what the newest verified
// attestation naming it at its final blob says; a file none names is
// Unattested, with the reason.
func attestedFiles(ctx context.Context, repo *gitrepo.Repo, commits []gitrepo.Commit, keys []ed25519.PublicKey, t attest.Target) ([]attest.File, []attest.Session, error) {
	var preds []attest.Predicate
	var why []string
	for _, cm := range commits {
		note, err := repo.Note(ctx, notesRef, cm.ID)
		if errors.Is(err, gitrepo.ErrNoNote) {
			why = append(why, fmt.Sprintf("commit %s has no attestation", cm.ID[:12]))
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		env, err := attest.ReadEnvelope(note)
		if err != nil {
			why = append(why, fmt.Sprintf("the note of commit %s: %v", cm.ID[:12], err))
			continue
		}
		ct, err := commitcheck.Target(ctx, repo, cm)
		if err != nil {
			return nil, nil, err
		}
		v, err := attest.Verify(ctx, env, keys, ct, repo, nil)
		if err != nil {
			return nil, nil, err
		}
		if !v.OK {
			why = append(why, fmt.Sprintf("the attestation of commit %s does not verify: %s", cm.ID[:12], strings.Join(v.Problems, "; ")))
			continue
		}
		preds = append(preds, *v.Predicate)
	}
	var files []attest.File
	var sessions []attest.Session
	seen := map[string]bool{}
	for _, ch := range t.Changes {
		f := attest.File{Path: ch.Path, Blob: ch.Blob, Base: ch.Base, By: attest.Unattested, Edits: []attest.Edit{}}
		f.Note = "no verified attestation in the range names the file at this blob (" + orWord(strings.Join(why, "; "), "it was changed by no attested commit") + "): attest the commits with clumsies attest and push " + notesRef
	find:
		for i := len(preds) - 1; i >= 0; i-- {
			for _, pf := range preds[i].Files {
				if pf.Path == ch.Path && pf.Blob == ch.Blob {
					f = pf
					f.Base = ch.Base
					for _, s := range preds[i].Sessions {
						if !seen[s.ID] {
							seen[s.ID] = true
							sessions = append(sessions, s)
						}
					}
					break find
				}
			}
		}
		files = append(files, f)
	}
	return files, sessions, nil
}

func orWord(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
