package node_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
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

// publishedOnSmallDisk attaches to a published workspace whose state
// folder is a 48 MB tmpfs.
func publishedOnSmallDisk(t *testing.T, opt func(*node.Options)) (*workspace.Workspace, *node.Handle) {
	t.Helper()
	ws := newWorkspace(t)
	mountSmallDisk(t, ws.StateDir(), "48m")
	h := attach(t, ws, opt)
	if _, err := h.Publish(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ws, h
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
	ws, h := publishedOnSmallDisk(t, func(o *node.Options) { o.RetryFor = time.Second })
	ctx := context.Background()
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

// TestHandle_DiskFullAnswersAtOnce fills the disk under a running owner
// (a real tmpfs) and calls on: a call answers at once, not after waiting
// for an owner that cannot start: not stored (unavailable) with the full
// disk as its reason, or outcome unknown for a call that raced the disk
// filling up. Once space is freed, every call answered outcome unknown is
// stored exactly once, and none answered unavailable is.
func TestHandle_DiskFullAnswersAtOnce(t *testing.T) {
	ws, h := publishedOnSmallDisk(t, func(o *node.Options) { o.Sync = embeddednats.SyncGroup })
	ctx := context.Background()
	filler := filepath.Join(ws.StateDir(), "filler")
	fill(t, filler)
	notStored, unknown := map[string]bool{}, map[string]bool{}
	reason := ""
	big := strings.Repeat("x", 60000)
	for i := 0; i < 400 && len(notStored) < 3; i++ {
		ev := report(t, ws, big)
		// A call that waited for an owner would end with this deadline
		// and name no cause.
		rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		err := h.Record(rctx, ev)
		cancel()
		var ou *node.OutcomeUnknownError
		var r interface{ Reason() string }
		switch {
		case err == nil:
		case errors.As(err, &ou):
			unknown[ev.ID] = true
		case errors.Is(err, node.ErrUnavailable) && errors.As(err, &r):
			notStored[ev.ID] = true
			reason = r.Reason()
		default:
			t.Fatalf("a call on a full disk: %v; want unavailable naming the full disk", err)
		}
	}
	if len(notStored) < 3 {
		t.Fatalf("%d calls answered unavailable on a full disk (%d outcome unknown)", len(notStored), len(unknown))
	}
	if !strings.Contains(reason, "full") {
		t.Errorf("the reason given is %q; want the full disk", reason)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		stored := countIDs(t, h)
		settledAll := true
		for id := range unknown {
			settledAll = settledAll && stored[id] == 1
		}
		if settledAll {
			for id := range notStored {
				if stored[id] != 0 {
					t.Errorf("event %s was answered not stored, but is stored %d times", id, stored[id])
				}
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a minute after space was freed, the events answered outcome unknown are not all stored once: %v", unknown)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("on a full disk: %d unavailable, %d outcome unknown (stored once when space was freed)", len(notStored), len(unknown))
}
