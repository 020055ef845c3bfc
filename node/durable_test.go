package node_test

import (
	"context"
	"testing"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/node"
)

func TestHandle_GroupCommitSyncsForEveryProcess(t *testing.T) {
	ws := newWorkspace(t)
	always := func(o *node.Options) { o.Sync = embeddednats.SyncAlways }
	a := attach(t, ws, always)
	b := attach(t, ws, always)
	if !a.IsOwner() || b.IsOwner() {
		t.Fatal("want the first handle to own the workspace and the second to reach it")
	}
	_, before, ok := a.SyncStats()
	if !ok {
		t.Fatal("the owner runs without group commit in the default durability")
	}
	ctx := context.Background()
	for i := range 3 {
		if _, err := b.Append(ctx, report(t, ws, "remote")); err != nil {
			t.Fatalf("remote append %d: %v", i, err)
		}
	}
	if _, err := a.Append(ctx, report(t, ws, "owner")); err != nil {
		t.Fatal(err)
	}
	rounds, calls, _ := a.SyncStats()
	if calls-before != 4 {
		t.Errorf("the owner synced %d times for 4 appends (3 of them from another process), want 4", calls-before)
	}
	if rounds == 0 {
		t.Error("no fsync round ran")
	}
}

func TestHandle_IntervalOwnerTellsOthersNotToAsk(t *testing.T) {
	ws := newWorkspace(t)
	a := attach(t, ws) // SyncInterval
	b := attach(t, ws, func(o *node.Options) { o.Sync = embeddednats.SyncAlways })
	if _, _, ok := a.SyncStats(); ok {
		t.Fatal("an interval owner has a group commit")
	}
	for range 3 {
		if _, err := b.Append(context.Background(), report(t, ws, "remote")); err != nil {
			t.Fatal(err)
		}
	}
}

func TestHandle_OwnerOfAnEarlierVersionIsNotAskedToSync(t *testing.T) {
	restore := node.WithoutMethod("sync")
	defer restore()
	ws := newWorkspace(t)
	always := func(o *node.Options) { o.Sync = embeddednats.SyncAlways }
	a := attach(t, ws, always)
	b := attach(t, ws, always)
	if !a.IsOwner() || b.IsOwner() {
		t.Fatal("want the first handle to own the workspace and the second to reach it")
	}
	for i := range 3 {
		if _, err := b.Append(context.Background(), report(t, ws, "remote")); err != nil {
			t.Fatalf("append %d through an owner without the sync method: %v", i, err)
		}
	}
}
