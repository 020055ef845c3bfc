package node_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/clumsies/clumsies/node"
)

// mountSmallDisk mounts a tmpfs of size at dir; it skips when the test may
// not mount.
func mountSmallDisk(tb testing.TB, dir, size string) {
	tb.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		tb.Skipf("mount a tmpfs: %v: %s", err, bytes.TrimSpace(out))
	}
	tb.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
}

// fill writes zeros into path until the disk is full.
func fill(tb testing.TB, path string) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 1<<20)
	for {
		if _, err := f.Write(chunk); err != nil {
			return
		}
	}
}

// TestHandle_DiskFullOnce fills the disk under a running owner (a real
// tmpfs): appends fail while it is full, and JetStream shuts itself down.
// Once space is freed the workspace works again without a restart by hand,
// and every append that was acknowledged is stored once.
func TestHandle_DiskFullOnce(t *testing.T) {
	ws := newWorkspace(t)
	mountSmallDisk(t, ws.StateDir(), "48m")
	h := attach(t, ws, func(o *node.Options) { o.RetryFor = time.Second })
	ctx := context.Background()
	if _, err := h.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	acked := map[string]bool{}
	record := func(summary string) error {
		ev := report(t, ws, summary)
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		err := h.Record(rctx, ev)
		if err == nil {
			acked[ev.ID] = true
		}
		return err
	}
	if err := record("before"); err != nil {
		t.Fatal(err)
	}
	filler := filepath.Join(ws.StateDir(), "filler")
	fill(t, filler)
	failed := false
	for i := 0; i < 20 && !failed; i++ {
		failed = record("while full") != nil
	}
	if !failed {
		t.Fatal("appends on a full disk kept succeeding")
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := record("after")
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("appends still fail 30 s after space was freed: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	stored := countIDs(t, h)
	for id := range acked {
		if stored[id] != 1 {
			t.Errorf("acknowledged event %s stored %d times", id, stored[id])
		}
	}
	if r, err := h.Verify(ctx); err != nil && !errors.Is(err, context.Canceled) || !r.OK() {
		t.Fatalf("verify after the disk was full: %v %v", err, r.Problems)
	}
}
