package node_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/node"
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
// stored bytes and the checkpoints (or the read models' chain) disagree.
//
// The ledger: 10 reports, a checkpoint at 11 (covering 1..10), 10 more,
// a checkpoint at 22, 10 more, a checkpoint at 33.
func TestVerify_Tampered(t *testing.T) {
	build := func(t *testing.T) (*workspace.Workspace, []byte) {
		ws := suiteWorkspace(t)
		n := openNode(t, ws)
		grow(t, n, 10)
		grow(t, n, 10)
		n.Close()
		older, err := os.ReadFile(readBlock(t, ws, 1).path)
		if err != nil {
			t.Fatal(err)
		}
		n = openNode(t, ws)
		grow(t, n, 10)
		n.Close()
		return ws, older
	}
	cases := []struct {
		name   string
		tamper func(t *testing.T, ws *workspace.Workspace, older []byte)
		seq    uint64 // the sequence verify must name
		after  uint64 // through which the checkpoints hold
	}{
		{"Untouched", func(*testing.T, *workspace.Workspace, []byte) {}, 0, 32},
		{"FlippedBytes", func(t *testing.T, ws *workspace.Workspace, _ []byte) {
			// A rewritten summary: same length, still an event.
			b := readBlock(t, ws, 1)
			r := b.find(t, 15)
			i := bytes.Index(r.data, []byte(`"summary":"work"`))
			if i < 0 {
				t.Fatalf("seq 15 holds %s", r.data)
			}
			r.data = bytes.Clone(r.data)
			copy(r.data[i:], `"summary":"play"`)
			b.set(r)
			b.write(t, 0)
		}, 22, 10},
		{"DeletedMessage", func(t *testing.T, ws *workspace.Workspace, _ []byte) {
			b := readBlock(t, ws, 1)
			r := b.find(t, 15)
			r.seq |= eraseBit
			b.set(r)
			b.write(t, 0)
		}, 15, 10},
		{"TruncatedTail", func(t *testing.T, ws *workspace.Workspace, _ []byte) {
			readBlock(t, ws, 1).write(t, 25)
		}, 26, 21},
		{"OlderBlockRestored", func(t *testing.T, ws *workspace.Workspace, older []byte) {
			b := readBlock(t, ws, 1)
			if err := os.WriteFile(b.path, older, 0o600); err != nil {
				t.Fatal(err)
			}
			dropStateSnapshot(t, msgsDir(ws))
		}, 23, 21},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws, older := build(t)
			tc.tamper(t, ws, older)
			r := verifyNode(t, ws)
			p := r.Chain.Problem
			if tc.seq == 0 {
				if !r.OK() || p != nil || r.Chain.Through != 33 || r.Chain.Checkpoints != 3 || r.Chain.Verified != tc.after {
					t.Fatalf("verify of an untouched store: got %+v", r)
				}
				return
			}
			if r.OK() || p == nil {
				t.Fatalf("verify: got no problem (%+v), want the chain broken at seq %d", r, tc.seq)
			}
			if p.Seq != tc.seq || p.After != tc.after {
				t.Fatalf("verify: got the chain broken at seq %d (good through %d): %s; want seq %d (good through %d)", p.Seq, p.After, p.Reason, tc.seq, tc.after)
			}
			// Without read models (an owner that cannot start), the
			// chain check names the same sequence.
			alone, err := node.CheckLedger(context.Background(), ws, node.Options{Sync: embeddednats.SyncInterval})
			if err != nil || alone.Problem == nil || alone.Problem.Seq != tc.seq {
				t.Fatalf("CheckLedger: got %+v, %v; want the chain broken at seq %d", alone.Problem, err, tc.seq)
			}
			t.Logf("%s: %s", tc.name, r.Problems[0])
		})
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
	older, err := os.ReadFile(readBlock(t, ws, 1).path)
	if err != nil {
		t.Fatal(err)
	}
	n = openNode(t, ws)
	grow(t, n, 10)
	n.Close()
	if err := os.WriteFile(readBlock(t, ws, 1).path, older, 0o600); err != nil {
		t.Fatal(err)
	}
	dropStateSnapshot(t, msgsDir(ws))
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
