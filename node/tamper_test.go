package node_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/internal/jsblock"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/proof/ledger"
	"github.com/clumsies/clumsies/workspace"
)

// openNode owns ws with its read models caught up.
func openNode(tb testing.TB, ws *workspace.Workspace) *node.Node {
	tb.Helper()
	ctx := context.Background()
	n, err := node.Open(ctx, ws, node.Options{Sync: embeddednats.SyncInterval})
	if err != nil {
		tb.Fatal(err)
	}
	if err := n.StartProjections(ctx); err != nil {
		n.Close()
		tb.Fatal(err)
	}
	if _, err := n.CatchUp(ctx); err != nil {
		n.Close()
		tb.Fatal(err)
	}
	return n
}

// grow appends k reports and then a checkpoint.
func grow(tb testing.TB, n *node.Node, k int) {
	tb.Helper()
	ctx := context.Background()
	for i := 0; i < k; i++ {
		if _, err := n.Log.Append(ctx, report(tb, n.WS, "work")); err != nil {
			tb.Fatal(err)
		}
	}
	if ok, err := n.Checkpoint(ctx); err != nil || !ok {
		tb.Fatalf("checkpoint: got %v, %v, want one appended", ok, err)
	}
}

// verifyNode opens ws and verifies it. The read models need not catch
// up: a damaged stream stops the projector.
func verifyNode(tb testing.TB, ws *workspace.Workspace) node.Report {
	tb.Helper()
	n, err := node.Open(context.Background(), ws, node.Options{Sync: embeddednats.SyncInterval})
	if err != nil {
		tb.Fatal(err)
	}
	defer n.Close()
	if err := n.StartProjections(context.Background()); err != nil {
		tb.Fatal(err)
	}
	r, err := n.Verify(context.Background())
	if err != nil {
		tb.Fatalf("verify: %v", err)
	}
	return r
}

// TestVerify_Tampered changes a workspace's JetStream store behind the
// server's back, the way an editor of the block files would (checksums
// made right), and checks that verify names the first sequence where the
// stored bytes and the checkpoints (or the read models' chain) disagree,
// and every sequence missing or rewritten: with no owner running
// (VerifyStopped, which starts none and leaves the read models as they
// were), and through an owner.
//
// The ledger: 10 reports, a checkpoint at 11 (covering 1..10), 10 more,
// a checkpoint at 22, 10 more, a checkpoint at 33.
func TestVerify_Tampered(t *testing.T) {
	build := func(t *testing.T) (*workspace.Workspace, []byte) {
		ws := suiteWorkspace(t)
		n := openNode(t, ws)
		grow(t, n, 10)
		grow(t, n, 10)
		if _, err := n.CatchUp(context.Background()); err != nil {
			t.Fatal(err)
		}
		n.Close()
		older, err := os.ReadFile(jsblock.Read(t, ws, 1).Path)
		if err != nil {
			t.Fatal(err)
		}
		n = openNode(t, ws)
		grow(t, n, 10)
		// The read models see the whole ledger, the last checkpoint too,
		// before the owner stops: what they remember is then fixed.
		if _, err := n.CatchUp(context.Background()); err != nil {
			t.Fatal(err)
		}
		n.Close()
		return ws, older
	}
	cases := []struct {
		name   string
		tamper func(t *testing.T, ws *workspace.Workspace, older []byte)
		seq    uint64 // the sequence verify must name
		after  uint64 // through which the checkpoints hold
		// what verify finds missing and rewritten with no owner, and
		// through one (which rebuilds read models ahead of the stream,
		// so that they remember less)
		missing      []ledger.Span
		changed      []uint64
		ownerChanged []uint64
		ownerSeq     uint64 // the sequence named through an owner, if not seq
	}{
		{"Untouched", func(*testing.T, *workspace.Workspace, []byte) {}, 0, 32, nil, nil, nil, 0},
		{"FlippedBytes", func(t *testing.T, ws *workspace.Workspace, _ []byte) {
			// A rewritten summary: same length, still an event.
			b := jsblock.Read(t, ws, 1)
			b.Replace(t, 15, `"summary":"work"`, `"summary":"play"`)
			b.Write(t, 0)
		}, 15, 10, nil, []uint64{15}, []uint64{15}, 0},
		{"TwoFlipped", func(t *testing.T, ws *workspace.Workspace, _ []byte) {
			b := jsblock.Read(t, ws, 1)
			b.Replace(t, 15, `"summary":"work"`, `"summary":"play"`)
			b.Replace(t, 28, `"summary":"work"`, `"summary":"play"`)
			b.Write(t, 0)
		}, 15, 10, nil, []uint64{15, 28}, []uint64{15, 28}, 0},
		{"Undecodable", func(t *testing.T, ws *workspace.Workspace, _ []byte) {
			// A message that no longer decodes: the ones after it are
			// read on, not taken for missing.
			b := jsblock.Read(t, ws, 1)
			b.Replace(t, 15, `"workspaceId"`, `"playspaceId"`)
			b.Replace(t, 28, `"summary":"work"`, `"summary":"play"`)
			b.Write(t, 0)
		}, 15, 10, nil, []uint64{15, 28}, []uint64{15, 28}, 0},
		{"DeletedMessage", func(t *testing.T, ws *workspace.Workspace, _ []byte) {
			b := jsblock.Read(t, ws, 1)
			b.Erase(t, 15)
			b.Write(t, 0)
		}, 15, 10, []ledger.Span{{From: 15, To: 15}}, nil, nil, 0},
		{"TwoDeletedAndFlipped", func(t *testing.T, ws *workspace.Workspace, _ []byte) {
			b := jsblock.Read(t, ws, 1)
			for _, seq := range []uint64{3, 4, 30} {
				b.Erase(t, seq)
			}
			b.Replace(t, 15, `"summary":"work"`, `"summary":"play"`)
			b.Write(t, 0)
		}, 3, 0, []ledger.Span{{From: 3, To: 4}, {From: 30, To: 30}}, []uint64{15}, []uint64{15}, 0},
		{"TruncatedTail", func(t *testing.T, ws *workspace.Workspace, _ []byte) {
			jsblock.Read(t, ws, 1).Write(t, 25)
		}, 26, 21, []ledger.Span{{From: 26, To: 33}}, nil, nil, 0},
		{"TruncatedTailAndFlipped", func(t *testing.T, ws *workspace.Workspace, _ []byte) {
			b := jsblock.Read(t, ws, 1)
			b.Replace(t, 15, `"summary":"work"`, `"summary":"play"`)
			b.Write(t, 25)
		}, 15, 10, []ledger.Span{{From: 26, To: 33}}, []uint64{15}, nil, 22},
		{"OlderBlockRestored", func(t *testing.T, ws *workspace.Workspace, older []byte) {
			b := jsblock.Read(t, ws, 1)
			if err := os.WriteFile(b.Path, older, 0o600); err != nil {
				t.Fatal(err)
			}
			jsblock.DropStateSnapshot(t, jsblock.MsgsDir(ws))
		}, 23, 21, []ledger.Span{{From: 23, To: 33}}, nil, nil, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws, older := build(t)
			tc.tamper(t, ws, older)
			// No owner runs: verify opens the store itself and starts no
			// projector, so it neither waits for one nor rebuilds the
			// read models ahead of the stream (which would keep a mark).
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			alone, err := node.VerifyStopped(ctx, ws, node.Options{Sync: embeddednats.SyncInterval})
			if err != nil {
				t.Fatalf("VerifyStopped: %v", err)
			}
			if _, err := os.Stat(filepath.Join(ws.StateDir(), "ledger-mark.json")); !os.IsNotExist(err) {
				t.Fatalf("VerifyStopped rebuilt the read models (a ledger mark: %v)", err)
			}
			checkTampered(t, "VerifyStopped", alone, tc.seq, tc.after, tc.missing, tc.changed)
			// Through an owner, the chain check names the same, but for
			// what the read models it rebuilt no longer remember.
			r := verifyNode(t, ws)
			seq := tc.seq
			if tc.ownerSeq != 0 {
				seq = tc.ownerSeq
			}
			checkTampered(t, "Verify", r, seq, tc.after, tc.missing, tc.ownerChanged)
			if tc.seq == 0 && (r.Chain.Through != 33 || r.Chain.Checkpoints != 3) {
				t.Fatalf("verify of an untouched store: got %+v", r)
			}
			t.Logf("%s: %q", tc.name, alone.Problems)
		})
	}
}

// checkTampered checks that r names the chain broken at seq (good through
// after), or nothing when seq is 0, and exactly the sequences missing and
// changed.
func checkTampered(tb testing.TB, what string, r node.Report, seq, after uint64, missing []ledger.Span, changed []uint64) {
	tb.Helper()
	p := r.Chain.Problem
	if seq == 0 {
		if !r.OK() || p != nil || r.Chain.Verified != after {
			tb.Fatalf("%s of an untouched store: got %+v", what, r)
		}
		return
	}
	if r.OK() || p == nil {
		tb.Fatalf("%s: got no problem (%+v), want the chain broken at seq %d", what, r, seq)
	}
	if p.Seq != seq || p.After != after {
		tb.Fatalf("%s: got the chain broken at seq %d (good through %d): %s; want seq %d (good through %d)", what, p.Seq, p.After, p.Reason, seq, after)
	}
	if !slices.Equal(r.Chain.Missing, missing) || !slices.Equal(r.Chain.Changed, changed) {
		tb.Fatalf("%s: got missing %v and changed %v, want %v and %v (%q)", what, r.Chain.Missing, r.Chain.Changed, missing, changed, r.Problems)
	}
}

// TestVerify_RestoredAndWrittenOn restores an older block and lets the
// workspace carry on: the owner rebuilds its read models, which were
// ahead of the stream, the new events reuse the sequences of the lost
// ones and a new checkpoint covers them, and verify still finds the
// rollback from the chain the old read models had reached.
func TestVerify_RestoredAndWrittenOn(t *testing.T) {
	ws := suiteWorkspace(t)
	n := openNode(t, ws)
	grow(t, n, 10)
	n.Close()
	older, err := os.ReadFile(jsblock.Read(t, ws, 1).Path)
	if err != nil {
		t.Fatal(err)
	}
	n = openNode(t, ws)
	grow(t, n, 10)
	n.Close()
	if err := os.WriteFile(jsblock.Read(t, ws, 1).Path, older, 0o600); err != nil {
		t.Fatal(err)
	}
	jsblock.DropStateSnapshot(t, jsblock.MsgsDir(ws))
	n = openNode(t, ws)
	for i := 0; i < 3; i++ { // seqs 12..14 again, with other bytes
		if _, err := n.Log.Append(context.Background(), report(t, ws, "after the restore")); err != nil {
			t.Fatal(err)
		}
	}
	// The owner rebuilt the read models that were ahead of the stream and
	// may checkpoint the restored ledger: the mark it kept still tells.
	if _, err := n.Checkpoint(context.Background()); err != nil {
		t.Fatal(err)
	}
	n.Close()
	r := verifyNode(t, ws)
	if p := r.Chain.Problem; r.OK() || p == nil || p.Seq < 12 || p.Seq > 22 {
		t.Fatalf("verify after a restore and new writes: got %+v, want a problem in 12..22", r)
	}
	t.Log(r.Problems)
}
