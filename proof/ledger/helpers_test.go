package ledger_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"regexp"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/proof/ledger"
)

const ws = eventstest.WorkspaceID

// openLog starts an embedded server on a fresh folder and opens the
// test workspace's log on it; both stop when the test ends.
func openLog(tb testing.TB) *natsjs.Log {
	tb.Helper()
	srv := &embeddednats.Server{Dir: tb.TempDir(), Sync: embeddednats.SyncInterval}
	if err := srv.Start(); err != nil {
		tb.Fatal(err)
	}
	nc, err := srv.Connect()
	if err != nil {
		srv.Close()
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		nc.Close()
		srv.Close()
	})
	l, err := natsjs.Open(ctx(tb), nc, ws, natsjs.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

func ctx(tb testing.TB) context.Context {
	tb.Helper()
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	tb.Cleanup(cancel)
	return c
}

// grow appends n events to l, with a checkpoint after every `every`
// events (counting from the start of the ledger), stored in pipelined
// batches as an import does. The events are refers, reports and setups
// of a few sessions, so that the read models have something to hold.
func grow(tb testing.TB, l *natsjs.Log, n, every int) {
	tb.Helper()
	c := ctx(tb)
	last, err := l.LastSeq(c)
	if err != nil {
		tb.Fatal(err)
	}
	chain := events.ChainStart(ws)
	if last > 0 {
		if err := l.Replay(c, 1, func(ev events.Event) error { chain = chain.Next(ev.Seq, ev.Raw); return nil }); err != nil {
			tb.Fatal(err)
		}
	}
	batch := make([]events.Event, 0, 1024)
	add := func(ev events.Event) {
		raw, err := events.Encode(ev)
		if err != nil {
			tb.Fatal(err)
		}
		last++
		ev.Seq, ev.Raw = last, raw
		chain = chain.Next(ev.Seq, raw)
		if batch = append(batch, ev); len(batch) == cap(batch) {
			if err := l.AppendStored(c, batch); err != nil {
				tb.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	for i := 0; i < n; i++ {
		ev := eventstest.Event(tb, i)
		ev.SessionID = fmt.Sprintf("s%d", i%7)
		add(ev)
		if every > 0 && last%uint64(every+1) == uint64(every) {
			cp, err := events.New(ws, events.TypeCheckpoint, events.CheckpointData{Seq: last, Digest: chain.String()})
			if err != nil {
				tb.Fatal(err)
			}
			add(cp)
		}
	}
	if len(batch) > 0 {
		if err := l.AppendStored(c, batch); err != nil {
			tb.Fatal(err)
		}
	}
}

// modelsDigest replays l into fresh read models and returns their digest.
func modelsDigest(tb testing.TB, l events.Log) string {
	tb.Helper()
	s, err := projections.Rebuild(ctx(tb), l, "/m", projections.Options{FS: vfs.NewMem()}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer s.Close()
	d, err := s.Digest()
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// rewrite decompresses an export, lets edit change its lines, and
// compresses it again.
func rewrite(tb testing.TB, export []byte, edit func(lines [][]byte) [][]byte) []byte {
	tb.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(export))
	if err != nil {
		tb.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	lines := bytes.SplitAfter(plain, []byte("\n"))
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	for _, l := range edit(lines) {
		zw.Write(l)
	}
	zw.Close()
	return out.Bytes()
}

// exportAll returns the export of the whole of src.
func exportAll(tb testing.TB, src *natsjs.Log) []byte {
	tb.Helper()
	var file bytes.Buffer
	if _, err := ledger.Export(ctx(tb), src, ws, 1, 0, &file, nil); err != nil {
		tb.Fatal(err)
	}
	return file.Bytes()
}

// version1 rewrites an export as format version 1 wrote it: no chain in
// its lines.
func version1(tb testing.TB, export []byte) []byte {
	tb.Helper()
	chain := regexp.MustCompile(`^(\{"seq":\d+),"chain":"[0-9a-f]{16}"`)
	return rewrite(tb, export, func(ls [][]byte) [][]byte {
		ls[0] = bytes.Replace(ls[0], []byte(`"v":2`), []byte(`"v":1`), 1)
		for i := range ls[1:] {
			ls[i+1] = chain.ReplaceAll(ls[i+1], []byte("$1"))
		}
		return ls
	})
}

// opener opens b as a file.
func opener(b []byte) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
}
