package attest_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/proof/attest"
	"github.com/clumsies/clumsies/proof/gitrepo"
)

// commitFile commits x.go holding body in a new repository and returns
// the repository, the commit and the file's blob id.
func commitFile(tb testing.TB, body string) (*gitrepo.Repo, gitrepo.Commit, string) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git is not installed")
	}
	dir := tb.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			tb.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(body), 0o644); err != nil {
		tb.Fatal(err)
	}
	git("add", "x.go")
	git("commit", "-qm", "x")
	ctx := context.Background()
	r, err := gitrepo.Open(ctx, dir)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := r.Resolve(ctx, "HEAD")
	if err != nil {
		tb.Fatal(err)
	}
	return r, c, git("rev-parse", "HEAD:x.go")
}

// TestVerify_LedgerChain: an attestation verified against its ledger
// holds while the ledger's stored events hash to its checkpoints; a
// stored event rewritten since (one the attribution does not even read)
// makes the ledger's word worthless, and verify says so.
func TestVerify_LedgerChain(t *testing.T) {
	ctx := context.Background()
	repo, c, blob := commitFile(t, "package x\n")
	evs := stored(t,
		ev(t, "a", events.TypeSessionStart, events.SessionStartData{Host: "codex"}),
		write(t, "a", "x.go", "", blob, nil, nil),
		ev(t, "", events.TypeCheckpoint, events.CheckpointData{Seq: 2}),
	)
	fold := func(evs []events.Event) *attest.Evidence {
		e := attest.NewEvidence(ws, "")
		for _, ev := range evs {
			if err := e.Add(ev); err != nil {
				t.Fatal(err)
			}
		}
		return e
	}
	tg := attest.Target{Commit: c.ID, CommitTime: c.Time, Changes: []attest.Change{{Path: "x.go", Blob: blob}}}
	e := fold(evs)
	p := attest.Attribute(e, tg)
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	env, err := attest.Sign(ctx, p, priv)
	if err != nil {
		t.Fatal(err)
	}
	v, err := attest.Verify(ctx, env, []ed25519.PublicKey{pub}, tg, repo, e)
	if err != nil || !v.OK || v.Ledger != attest.LedgerChecked || v.ChainVerified != 2 {
		t.Fatalf("verify against the ledger: %+v, %v; want ok, checked, the chain holding through seq 2", v, err)
	}
	evs[0].Raw = []byte(strings.Replace(string(evs[0].Raw), "codex", "cursor", 1))
	v, err = attest.Verify(ctx, env, []ed25519.PublicKey{pub}, tg, repo, fold(evs))
	if err != nil || v.OK || !strings.Contains(strings.Join(v.Problems, "\n"), "hash chain does not hold at seq 3") {
		t.Fatalf("verify against a rewritten ledger: %+v, %v; want the broken chain named", v, err)
	}
	noRaw := stored(t, ev(t, "a", events.TypeSessionStart, events.SessionStartData{Host: "codex"}))
	noRaw[0].Raw = nil
	if _, ok := fold(noRaw).Chain(); ok {
		t.Fatalf("events without their stored bytes: the chain says it was computed")
	}
}
