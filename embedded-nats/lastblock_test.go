package embeddednats

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// forcedCycles returns how many collections were forced (runtime.GC,
// debug.FreeOSMemory) in this process.
func forcedCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// blockAppend is one append of TestLastBlock_ReleasesBeforeEachBufferSize:
// the last block's size after it, and whether LastBlock, told of the
// next append, returned the free pages before it.
type blockAppend struct {
	size     int64
	released bool
}

// TestLastBlock_ReleasesBeforeEachBufferSize appends to a real stream
// until its first block passes 1.5 MiB, with the collector off so that
// only forced collections run, and wants the free pages returned within
// BlockZone under each of nats-server's buffer sizes, before the append
// that passes it, only when a collection ran since they were last
// returned, and never elsewhere.
func TestLastBlock_ReleasesBeforeEachBufferSize(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, &Server{Dir: dir})
	nc := connect(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: testStream, Subjects: []string{testSubject}, Storage: jetstream.FileStorage}); err != nil {
		t.Fatal(err)
	}
	w, err := s.LastBlock(testStream)
	if err != nil {
		t.Fatal(err)
	}
	block := filepath.Join(StreamDir(dir, testStream), msgsFolder, "1.blk")
	defer debug.SetGCPercent(debug.SetGCPercent(-1))

	payload := make([]byte, 1000)
	var appends []blockAppend
	collectedAt := int64(-1)
	for {
		if _, err := js.Publish(ctx, testSubject, payload); err != nil {
			t.Fatal(err)
		}
		before := forcedCycles()
		w.Appending()
		st, err := os.Stat(block)
		if err != nil {
			t.Fatal(err)
		}
		released := forcedCycles() > before
		appends = append(appends, blockAppend{st.Size(), released})
		if collectedAt < 0 && st.Size() > 1<<20-BlockZone/2 {
			// Since the release under 256 KiB no collection ran, and none
			// freed pages: nothing to return until this one.
			runtime.GC()
			collectedAt = st.Size()
		}
		if st.Size() > 3<<19 {
			break
		}
	}

	for i, a := range appends {
		if a.released && !inZone(a.size) {
			t.Errorf("released after append %d at %d bytes, not within %d under a buffer size", i, a.size, BlockZone)
		}
	}
	for _, limit := range blockBufferSizes {
		releases, passed := 0, false
		for i, a := range appends {
			if a.size > limit {
				if releases == 0 {
					t.Errorf("the block passed %d bytes at append %d (%d bytes) with no release before it", limit, i, a.size)
				}
				passed = true
				break
			}
			if a.released && a.size >= limit-BlockZone {
				releases++
			}
		}
		if !passed || releases != 1 {
			t.Errorf("%d releases under %d bytes (passed: %v), want 1", releases, limit, passed)
		}
	}
	for i, a := range appends {
		if a.released && a.size > 1<<20-BlockZone && a.size <= collectedAt {
			t.Errorf("released after append %d at %d bytes, with no collection since the last release (forced at %d bytes)", i, a.size, collectedAt)
		}
	}
	if got := w.Released(); got != 2 {
		t.Errorf("Released() = %d, want 2", got)
	}
}

// inZone reports whether a block of size bytes is within BlockZone under
// one of nats-server's buffer sizes.
func inZone(size int64) bool {
	for _, limit := range blockBufferSizes {
		if size >= limit-BlockZone && size <= limit {
			return true
		}
	}
	return false
}

// TestLastBlock_NewBlock wants a block made after the watcher found the
// stream followed, its sizes passed again from the start, also when the
// last one stopped short of them, and the returns under one size bounded.
func TestLastBlock_NewBlock(t *testing.T) {
	dir := t.TempDir()
	msgs := filepath.Join(StreamDir(dir, testStream), msgsFolder)
	if err := os.MkdirAll(msgs, 0o755); err != nil {
		t.Fatal(err)
	}
	s := &Server{Dir: dir}
	w, err := s.LastBlock(testStream)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, size int64) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(msgs, name), make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	write("1.blk", 3<<20)
	w.Appending()
	if got := w.Released(); got != 0 {
		t.Fatalf("released %d times for a block past every buffer size", got)
	}
	write("2.blk", 256<<10-100)
	w.Appending()
	if got := w.Released(); got != 1 {
		t.Fatalf("released %d times for a new block just under 256 KiB, want 1", got)
	}
	// Many collections while the block stays under a size: a bounded
	// number of returns.
	for range 2 * maxZoneReleases {
		runtime.GC()
		w.Appending()
	}
	if got := w.Released(); got != maxZoneReleases {
		t.Fatalf("released %d times under one size, want at most %d", got, maxZoneReleases)
	}
	// A block made while the last one stopped short of a size is followed
	// within newBlockEvery appends.
	write("3.blk", 1<<20-100)
	runtime.GC()
	for range newBlockEvery {
		w.Appending()
	}
	if got := w.Released(); got != maxZoneReleases+1 {
		t.Fatalf("released %d times after a new block under 1 MiB, want %d", got, maxZoneReleases+1)
	}
	if _, err := s.LastBlock("a.b"); err == nil {
		t.Error("LastBlock of a stream name with a dot: no error")
	}
}
