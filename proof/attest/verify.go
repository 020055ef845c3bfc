package attest

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	ita "github.com/in-toto/attestation/go/v1"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// Blobs reads the blob id of a path in a commit ("" when it has no such
// file): gitrepo.Repo.Blob.
type Blobs interface {
	Blob(ctx context.Context, commit, path string) (string, error)
}

// Verification is what Verify found of one commit's attestation.
type Verification struct {
	Commit string `json:"commit"`
	// OK is set when nothing below is a problem.
	OK bool `json:"ok"`
	// KeyID is the key id (OpenSSH SHA256 fingerprint) of the key whose
	// signature verified, "" when none did.
	KeyID string `json:"keyId"`
	// Ledger is LedgerChecked when the predicate was attributed again
	// from this workspace's ledger and matched, LedgerMismatch when it did
	// not, LedgerUnavailable when no ledger was at hand and LedgerOther
	// when this clone's ledger is not the one the attestation was made
	// from (the signature and the blob ids were checked); LedgerNote says
	// why.
	Ledger     string `json:"ledger"`
	LedgerNote string `json:"ledgerNote,omitempty"`
	// ChainVerified is, when the ledger was checked, the sequence through
	// which its hash chain agrees with its checkpoints.
	ChainVerified uint64 `json:"chainVerified,omitempty"`
	// Problems say what does not hold, each with what to do.
	Problems []string `json:"problems"`
	// Predicate is the attested predicate, once the signature holds.
	Predicate *Predicate `json:"predicate,omitempty"`
}

// What Verification.Ledger says.
const (
	LedgerChecked     = "checked"
	LedgerUnavailable = "unavailable"
	LedgerOther       = "other"
	LedgerMismatch    = "mismatch"
)

// Verify checks the attestation env of the commit t.Commit: its
// signature with keys, that its subject is the commit, that every
// attested blob id is the commit's, that its files are the commit's
// changes, and, with e (nil: no ledger at hand), that the ledger
// attributes the commit as the predicate says and holds its checkpoint.
func Verify(ctx context.Context, env *dsse.Envelope, keys []ed25519.PublicKey, t Target, blobs Blobs, e *Evidence) (Verification, error) {
	v := Verification{Commit: t.Commit, Ledger: LedgerUnavailable, Problems: []string{}}
	st, p, id, err := Open(ctx, env, keys)
	if errors.Is(err, ErrSignature) || errors.Is(err, ErrStatement) {
		v.Problems = append(v.Problems, err.Error())
		return v, nil
	}
	if err != nil {
		return v, err
	}
	v.Predicate, v.KeyID = &p, id
	if err := v.subjects(ctx, st, p, t, blobs); err != nil {
		return v, err
	}
	v.changes(p, t)
	if e != nil {
		v.ledger(p, t, e)
	}
	v.OK = len(v.Problems) == 0
	return v, nil
}

func (v *Verification) problem(format string, args ...any) {
	v.Problems = append(v.Problems, fmt.Sprintf(format, args...))
}

// subjects checks the Statement's subjects against the commit.
func (v *Verification) subjects(ctx context.Context, st *ita.Statement, p Predicate, t Target, blobs Blobs) error {
	var commit string
	for _, s := range st.Subject {
		if s.Name == CommitSubject {
			commit = s.Digest[string(ita.AlgorithmGitCommit)]
			continue
		}
		want := s.Digest[string(ita.AlgorithmGitBlob)]
		got, err := blobs.Blob(ctx, t.Commit, s.Name)
		if err != nil {
			return err
		}
		if got != want {
			v.problem("%s: the attestation names blob %s, the commit holds %s: the file changed after it was attested; attest the commit again", s.Name, short(want), short(got))
		}
	}
	if commit != t.Commit || p.Commit != t.Commit {
		v.problem("the attestation is of commit %s, not %s: the commit was amended or rebased since; run clumsies attest on it again", short(commit), short(t.Commit))
	}
	return nil
}

// changes checks the predicate's files against the commit's changes.
func (v *Verification) changes(p Predicate, t Target) {
	if p.Base != t.Base {
		v.problem("the attestation takes the changes against %s, the commit's parent is %s", short(p.Base), short(t.Base))
	}
	got := map[string]File{}
	for _, f := range p.Files {
		got[f.Path] = f
	}
	for _, c := range t.Changes {
		f, ok := got[c.Path]
		switch {
		case !ok:
			v.problem("%s: changed by the commit, missing from the attestation", c.Path)
		case f.Blob != c.Blob || f.Base != c.Base:
			v.problem("%s: the attestation says blob %s (from %s), the commit has %s (from %s)", c.Path, short(f.Blob), short(f.Base), short(c.Blob), short(c.Base))
		}
		delete(got, c.Path)
	}
	for _, path := range sortedKeys(got) {
		v.problem("%s: in the attestation, not changed by the commit", path)
	}
}

// ledger attributes the commit again from e, as it stood when the
// attestation was made, and compares.
func (v *Verification) ledger(p Predicate, t Target, e *Evidence) {
	// Another clone's ledger (the same workspace id, other events) cannot
	// speak for the attestation: it is left unchecked, and said so.
	switch id := e.eventID(p.Ledger.Read); {
	case e.WorkspaceID != p.WorkspaceID:
		v.Ledger, v.LedgerNote = LedgerOther, fmt.Sprintf("the attestation is from workspace %s, this ledger is %s's: the predicate was not checked against a ledger", p.WorkspaceID, e.WorkspaceID)
		return
	case p.Ledger.Read > e.Through:
		v.Ledger, v.LedgerNote = LedgerOther, fmt.Sprintf("the attestation read its ledger through seq %d, this one ends at seq %d: another clone's ledger (or one rolled back: clumsies verify tells); the predicate was not checked against a ledger", p.Ledger.Read, e.Through)
		return
	case id != p.Ledger.ReadID:
		v.Ledger, v.LedgerNote = LedgerOther, fmt.Sprintf("this ledger's event at seq %d is %s, the attestation's is %s: another clone's ledger; the predicate was not checked against a ledger", p.Ledger.Read, orNone(id), orNone(p.Ledger.ReadID))
		return
	}
	n := len(v.Problems)
	again := Attribute(e.Upto(p.Ledger.Read), Target{Commit: p.Commit, Base: p.Base, BaseTime: t.BaseTime, CommitTime: t.CommitTime, Changes: t.Changes})
	want := map[string]File{}
	for _, f := range again.Files {
		want[f.Path] = f
	}
	for _, f := range p.Files {
		w := want[f.Path]
		if !sameJSON(f, w) {
			v.problem("%s: the attestation says %s by the edits at %v, the ledger says %s by %v (compare the rules, loads and gate decisions with clumsies attest --json)", f.Path, f.By, editSeqs(f.Edits), w.By, editSeqs(w.Edits))
		}
	}
	if !sameJSON(p.Sessions, again.Sessions) {
		v.problem("the attestation's sessions (hosts, models, constraints referenced) are not the ledger's")
	}
	if !sameJSON(p.Ledger, again.Ledger) {
		v.problem("the attestation cites the ledger's seq %d..%d, the ledger gives %d..%d", p.Ledger.From, p.Ledger.Through, again.Ledger.From, again.Ledger.Through)
	}
	if cp := p.Ledger.Checkpoint; cp != nil {
		got := e.checkpointAt(cp.Seq)
		if got == nil || got.Digest != cp.Digest || got.Through != cp.Through {
			v.problem("the ledger holds no checkpoint at seq %d with digest %s through seq %d as the attestation says: run clumsies verify on the workspace", cp.Seq, cp.Digest, cp.Through)
		}
	}
	// The ledger read must itself hold: its stored events hash to its
	// checkpoints.
	switch st, ok := e.Chain(); {
	case !ok:
		v.LedgerNote = "the ledger's hash chain could not be computed here (events without their stored bytes): run clumsies verify on the workspace"
	case st.Problem != nil:
		v.problem("the ledger's hash chain does not hold at %s: what it says of the commit cannot be trusted; run clumsies verify on the workspace", st.Problem)
	case p.Ledger.Checkpoint != nil && st.Verified < p.Ledger.Checkpoint.Through:
		v.problem("the ledger's checkpoints hold through seq %d only, not through the attestation's checkpoint (seq %d): run clumsies verify on the workspace", st.Verified, p.Ledger.Checkpoint.Through)
	default:
		v.ChainVerified = st.Verified
	}
	v.Ledger = LedgerChecked
	if len(v.Problems) > n {
		v.Ledger = LedgerMismatch
	}
}

// sameJSON reports whether a and b encode alike.
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

func editSeqs(es []Edit) []uint64 {
	out := make([]uint64, len(es))
	for i, e := range es {
		out[i] = e.Seq
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
