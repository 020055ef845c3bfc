package projections_test

import (
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// TestStore_ChainMemory checks that the read models keep the digest of
// every message they applied, over several blocks of
// them, across a reopen in the middle of a block and in a rebuild, and
// nothing past it or with the chain left out.
func TestStore_ChainMemory(t *testing.T) {
	l := newLedger(t)
	for i := 0; i < 150; i++ {
		l.refer("p-1", []string{"Wrap"})
	}
	evs := l.all()
	want := []events.MessageDigest{{}}
	var md events.MessageDigester
	for _, ev := range evs {
		want = append(want, md.Digest(ev.Seq, ev.Raw))
	}
	check := func(t *testing.T, s *projections.Store) {
		t.Helper()
		m := s.ChainMemory()
		for seq := uint64(1); seq <= uint64(len(evs))+1; seq++ {
			d, ok, err := m.MessageAt(seq)
			switch {
			case err != nil:
				t.Fatalf("MessageAt(%d): %v", seq, err)
			case seq > uint64(len(evs)) && ok:
				t.Fatalf("MessageAt(%d) past the last applied: got %s", seq, d)
			case seq <= uint64(len(evs)) && (!ok || d != want[seq]):
				t.Fatalf("MessageAt(%d): got %s, %v; want %s", seq, d, ok, want[seq])
			}
		}
	}

	fs := vfs.NewMem()
	s := openAt(t, fs, "/db", projections.Options{})
	apply(t, s, evs[:2]...)
	apply(t, s, evs[2:70]...)
	for _, ev := range evs[70:100] {
		apply(t, s, ev)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAt(t, fs, "/db", projections.Options{})
	defer closeQuietly(s)
	apply(t, s, evs[100:]...)
	check(t, s)
	r, err := projections.Rebuild(testCtx(t), l.log, "/re", projections.Options{FS: vfs.NewMem()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeQuietly(r)
	check(t, r)
	if a, b := digest(t, s), digest(t, r); a != b {
		t.Fatalf("the store applied in parts holds %s, its rebuild %s", a, b)
	}

	off := openAt(t, vfs.NewMem(), "/off", projections.Options{NoChain: true})
	defer closeQuietly(off)
	apply(t, off, evs...)
	if d, ok, err := off.ChainMemory().MessageAt(1); ok || err != nil {
		t.Fatalf("MessageAt of a store without the chain: got %s, %v, %v", d, ok, err)
	}
}
