package embeddednats

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
)

// nats-server keeps the stream's last block in memory while it writes to
// it, in a buffer from one of its pools by size (256 KiB, 1 MiB, 4 MiB;
// getMsgBlockBuf in nats-server v2.15's filestore.go). When a message
// does not fit the buffer any more, it takes one of the next pool's size
// and copies the block over: once, mid-run, for each of these sizes the
// block grows past.
var blockBufferSizes = [...]int64{256 << 10, 1 << 20}

// BlockZone is how far below one of nats-server's buffer sizes the last
// block's file has to be for LastBlock to keep the heap's free pages
// returned: room for the messages nats-server has not written to the file
// yet (it gathers up to 16 KiB for up to 8 ms when it is not told to
// write each one before its acknowledgement) and the next message.
const BlockZone = 32 << 10

// maxZoneReleases bounds the returns of the free pages while the block is
// under one size (messages of a few bytes take long to cross the zone),
// and newBlockEvery how many appends may pass before a block made while
// the last one was still under a size is seen.
const (
	maxZoneReleases = 16
	newBlockEvery   = 64
)

// LastBlock returns the process's free heap memory to the system while
// one stream's last block is about to outgrow nats-server's buffer for
// it, so that the larger buffer lands on memory the Go runtime need not
// clear.
//
// The Go runtime clears a large allocation placed on heap pages used
// before unless every page of it was returned to the system; the new
// buffer (up to 4 MiB) is placed at the lowest free run that fits, in
// practice at the top of the heap where the last collection freed
// garbage. When that run is partly free pages not yet returned, the
// runtime clears all of it and the process's resident memory grows by
// the whole buffer; when every free page was returned, only what
// nats-server writes into it becomes resident. Which happened depended
// on where the collector was in its cycle (BENCHMARKS.md, "Telemetry on,
// and the last block's buffer"). Appending, called before each append
// is sent (natsjs.Options.Appending), looks at the size of the last
// block's file and, while it is within BlockZone under the next buffer
// size, returns the free pages (debug.FreeOSMemory) whenever the
// collector has run since it last did: a few forced collections (5 to 7
// in a serve under memloads) each time a block passes a buffer size.
//
// A LastBlock is safe for concurrent use. It never fails an append: a
// file it cannot read is left alone.
type LastBlock struct {
	msgs string // the stream's msgs folder

	mu           sync.Mutex
	index        uint64 // the last block's index; 0 until the folder is found
	next         int    // the next of blockBufferSizes the block has to pass
	calls        uint64 // Appending's calls
	gcs          uint64 // the collector's cycles when the free pages were last returned
	zoneReleases int    // returns of the free pages under the next size

	released atomic.Uint64
}

// LastBlock returns the watcher of the named stream's last block, a
// stream of the global account, as StreamSync does. The stream need not
// exist yet.
func (s *Server) LastBlock(stream string) (*LastBlock, error) {
	if stream == "" || strings.ContainsAny(stream, `/\.`) {
		return nil, fmt.Errorf("embeddednats: stream name %q cannot name a folder", stream)
	}
	return &LastBlock{msgs: filepath.Join(StreamDir(s.Dir, stream), msgsFolder)}, nil
}

// Appending is called before an append is sent to the stream's server;
// it returns the free heap pages to the system when the last block is
// near one of nats-server's buffer sizes and the collector has run since
// they were last returned.
func (w *LastBlock) Appending() {
	w.mu.Lock()
	defer w.mu.Unlock()
	size, ok := w.lastSize()
	if !ok {
		return
	}
	for w.next < len(blockBufferSizes) && size > blockBufferSizes[w.next] {
		w.next, w.zoneReleases = w.next+1, 0
	}
	if w.next == len(blockBufferSizes) || size < blockBufferSizes[w.next]-BlockZone || w.zoneReleases == maxZoneReleases {
		return
	}
	if gc := gcCycles(); w.released.Load() > 0 && gc == w.gcs {
		// No collection since the pages were returned: no page was
		// freed since either.
		return
	}
	debug.FreeOSMemory()
	w.gcs = gcCycles()
	w.zoneReleases++
	w.released.Add(1)
}

// Released returns how many times Appending returned the free heap pages.
func (w *LastBlock) Released() uint64 { return w.released.Load() }

// lastSize returns the size of the last block's file, moving on to a
// newer block when there is one; ok is false when there is no size to
// look at. One file is looked at per call, but every newBlockEvery calls
// (a block that stopped short of the sizes is followed too).
func (w *LastBlock) lastSize() (size int64, ok bool) {
	if w.index == 0 {
		i, found := lastBlockIndex(w.msgs)
		if !found {
			return 0, false
		}
		w.index = i
	}
	w.calls++
	if w.next == len(blockBufferSizes) || w.calls%newBlockEvery == 0 {
		// nats-server makes blocks with the next index.
		if _, err := os.Stat(blockPath(w.msgs, w.index+1)); err != nil {
			return 0, false
		}
		w.index++
		w.next, w.zoneReleases = 0, 0
	}
	st, err := os.Stat(blockPath(w.msgs, w.index))
	if err != nil {
		return 0, false
	}
	return st.Size(), true
}

// lastBlockIndex returns the highest block index in the msgs folder.
func lastBlockIndex(msgs string) (uint64, bool) {
	entries, err := os.ReadDir(msgs)
	if err != nil {
		return 0, false
	}
	var last uint64
	for _, e := range entries {
		if i, ok := blockIndex(e.Name()); ok && e.Type().IsRegular() {
			last = max(last, i)
		}
	}
	return last, last > 0
}

// gcCycles returns how many collections the process has completed.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
