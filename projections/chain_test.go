package projections_test

import (
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

func TestStore_Chain(t *testing.T) {
	l := newLedger(t)
	l.publish("p-1", "rule", "go/ERRORS.md", "# Errors\n\n## Wrap\n\nWrap.\n")
	l.refer("p-1", []string{"Wrap"})
	l.add(events.TypeCheckpoint, events.CheckpointData{Seq: 2, Digest: "sha256:00"})
	l.refer("p-1", []string{"Wrap"})
	evs := l.all()

	// The chain written out by hand over the bytes the log stored.
	want := events.ChainStart(workspace)
	for _, ev := range evs {
		want = want.Next(ev.Seq, ev.Raw)
	}

	fs := vfs.NewMem()
	s := openAt(t, fs, "/db", projections.Options{})
	if got := s.Chain(); got != (projections.ChainHead{}) {
		t.Fatalf("chain of an empty store: got %+v", got)
	}
	apply(t, s, evs[:2]...)
	apply(t, s, evs[2:]...)
	head := projections.ChainHead{Seq: 4, Digest: want.String(), LastCheckpoint: 3, Checkpoints: 1}
	if got := s.Chain(); got != head {
		t.Fatalf("chain: got %+v, want %+v", got, head)
	}

	// The chain is a read model like the others: it survives a reopen and
	// a rebuild gives the same bytes.
	live := digest(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAt(t, fs, "/db", projections.Options{})
	if got := s.Chain(); got != head {
		t.Fatalf("chain after a reopen: got %+v, want %+v", got, head)
	}
	r, err := projections.Rebuild(testCtx(t), l.log, "/re", projections.Options{FS: vfs.NewMem()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeQuietly(r)
	if got := digest(t, r); got != live {
		t.Fatalf("rebuild digest %s, live %s", got, live)
	}

	// Other bytes at the same sequences give another chain.
	other := evs[3]
	other.Raw = append([]byte(nil), other.Raw...)
	other.Raw[len(other.Raw)-2] ^= 1
	o := openMem(t)
	apply(t, o, append(append([]events.Event(nil), evs[:3]...), other)...)
	if o.Chain().Digest == head.Digest {
		t.Fatal("a changed stored byte left the chain digest as it was")
	}

	// Events without their stored bytes are refused.
	bare := evs[0]
	bare.Raw = nil
	if err := openMem(t).Apply(bare); err == nil {
		t.Fatal("apply of an event without stored bytes: got nil error")
	}
}
