package embeddednats

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// groupStream creates the test stream on a SyncGroup server and returns
// its syncer.
func groupStream(tb testing.TB, s *Server) (jetstream.JetStream, *StreamSync) {
	tb.Helper()
	publishN(tb, connect(tb, s), 0) // creates the stream
	js, err := jetstream.New(connect(tb, s))
	if err != nil {
		tb.Fatal(err)
	}
	g, err := s.StreamSync(testStream)
	if err != nil {
		tb.Fatal(err)
	}
	return js, g
}

func TestStreamSync_FindsTheStreamsBlocks(t *testing.T) {
	s := startServer(t, &Server{Dir: t.TempDir(), Sync: SyncGroup})
	js, g := groupStream(t, s)
	ctx := context.Background()
	if _, err := js.Publish(ctx, testSubject, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := g.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	// A wrong folder would sync nothing, silently: the first round must
	// have found the stream and its first block.
	if !g.scanned || g.last != 1 {
		t.Fatalf("after the first sync: found the stream %v, last block %d; want true, 1", g.scanned, g.last)
	}
	// Messages of 1 MiB fill the 8 MiB blocks: the rounds must follow
	// into the new ones.
	big := make([]byte, 1<<20)
	for range 20 {
		if _, err := js.Publish(ctx, testSubject, big); err != nil {
			t.Fatal(err)
		}
		if err := g.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(g.dir + "/" + msgsFolder)
	if err != nil {
		t.Fatal(err)
	}
	var blocks uint64
	for _, e := range entries {
		if i, ok := blockIndex(e.Name()); ok {
			blocks = max(blocks, i)
		}
	}
	if blocks < 2 || g.last != blocks {
		t.Errorf("last block synced %d, the stream's last block %d (want at least 2, equal)", g.last, blocks)
	}
	rounds, calls := g.Stats()
	if rounds != 21 || calls != 21 {
		t.Errorf("rounds %d, calls %d; want 21 and 21 for one caller", rounds, calls)
	}
}

func TestStreamSync_CallersDuringARoundShareTheNext(t *testing.T) {
	s := startServer(t, &Server{Dir: t.TempDir(), Sync: SyncGroup})
	_, g := groupStream(t, s)
	// A round is running (as if a caller were in its fsync): callers that
	// arrive now may not count on it and must share one more.
	g.mu.Lock()
	g.running, g.started = true, 1
	g.mu.Unlock()
	const callers = 6
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for range callers {
		wg.Go(func() { errs <- g.Sync(context.Background()) })
	}
	waitFor(t, func() bool { _, calls := g.Stats(); return calls == callers })
	// Give them every chance to (wrongly) return while the round runs.
	time.Sleep(50 * time.Millisecond)
	if len(errs) != 0 {
		t.Fatalf("%d callers returned before the round they need ran", len(errs))
	}
	g.mu.Lock()
	g.running, g.done = false, 1
	g.cond.Broadcast()
	g.mu.Unlock()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if rounds, _ := g.Stats(); rounds != 1 {
		t.Errorf("%d callers that waited together ran %d rounds, want 1", callers, rounds)
	}
	if g.done != 2 {
		t.Errorf("rounds done %d, want 2", g.done)
	}
}

func TestStreamSync_StreamNotCreatedYet(t *testing.T) {
	s := startServer(t, &Server{Dir: t.TempDir(), Sync: SyncGroup})
	g, err := s.StreamSync("LATER")
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Sync(context.Background()); err != nil {
		t.Fatalf("sync before the stream exists: %v", err)
	}
	if g.scanned {
		t.Error("a stream that does not exist was taken as scanned: its files would never get a full sync")
	}
	if _, err := s.StreamSync("a/b"); err == nil {
		t.Error("a stream name with a slash was taken")
	}
}

// groupHelperEnv carries the state folder to TestGroupHelperProcess.
const groupHelperEnv = "EMBEDDEDNATS_GROUP_HELPER_DIR"

// TestGroupHelperProcess is not a test: run by
// TestStreamSync_AckedSurvivesSIGKILL in a child process, it appends from
// four goroutines on a SyncGroup server, syncing after every ack, and
// prints "acked <seq>" once each is synced, until it is killed.
func TestGroupHelperProcess(t *testing.T) {
	dir := os.Getenv(groupHelperEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	s := &Server{Dir: dir, Sync: SyncGroup}
	if err := s.Start(); err != nil {
		fmt.Printf("error %v\n", err)
		return
	}
	js, g := groupStream(t, s)
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				ack, err := js.Publish(context.Background(), testSubject, fmt.Appendf(nil, "w%d %d", w, i))
				if err == nil {
					err = g.Sync(context.Background())
				}
				mu.Lock()
				if err != nil {
					fmt.Fprintf(out, "error %v\n", err)
				} else {
					fmt.Fprintf(out, "acked %d\n", ack.Sequence)
				}
				out.Flush()
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestStreamSync_AckedSurvivesSIGKILL(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestGroupHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), groupHelperEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var highest uint64
	acked := 0
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && acked < 300 {
		line := sc.Text()
		num, ok := strings.CutPrefix(line, "acked ")
		if !ok {
			t.Fatalf("helper: %s", line)
		}
		seq, err := strconv.ParseUint(num, 10, 64)
		if err != nil {
			t.Fatalf("helper: %s", line)
		}
		highest = max(highest, seq)
		acked++
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Acks printed after the ones read may still be in the pipe.
	for sc.Scan() {
		if num, ok := strings.CutPrefix(sc.Text(), "acked "); ok {
			if seq, err := strconv.ParseUint(num, 10, 64); err == nil {
				highest = max(highest, seq)
			}
		}
	}
	cmd.Wait()
	if acked < 300 {
		t.Fatalf("the helper acked %d appends before it stopped, want 300", acked)
	}
	s := startServer(t, &Server{Dir: dir, Sync: SyncGroup})
	if got := streamMsgs(t, connect(t, s)); got < highest {
		t.Errorf("after SIGKILL the stream holds %d messages; the helper had acked up to seq %d", got, highest)
	}
}

// waitFor polls cond until it holds, failing the test after 10 seconds.
func waitFor(tb testing.TB, cond func() bool) {
	tb.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			tb.Fatal("condition not met within 10s")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestStreamSync_GatherGivesUpOnCallersThatDoNotCome(t *testing.T) {
	s := startServer(t, &Server{Dir: t.TempDir(), Sync: SyncGroup})
	_, g := groupStream(t, s)
	// A recent round served five callers; now one comes alone. It waits
	// for the others at most MaxGather, then syncs by itself.
	g.batches[3], g.expect = 5, 5
	g.gap = time.Millisecond // callers came every millisecond
	if err := g.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rounds, _ := g.Stats(); rounds != 1 {
		t.Errorf("rounds %d, want 1", rounds)
	}
	if g.gather != nil {
		t.Error("still gathering after the round")
	}
	if g.batches[1] != 1 {
		t.Errorf("the round served %d callers by its count, want 1", g.batches[1])
	}
	// Once the busy round is out of sight, a lone caller does not gather.
	for range recentRounds {
		if err := g.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if g.gather != nil || g.expect != 1 {
		t.Errorf("after lone calls: gathering %v, expecting %d callers, want 1", g.gather != nil, g.expect)
	}
}

func TestStreamSync_AFailureIsFinal(t *testing.T) {
	s := startServer(t, &Server{Dir: t.TempDir(), Sync: SyncGroup})
	_, g := groupStream(t, s)
	if err := g.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The stream's folder becomes a file: looking for new blocks fails
	// (not a directory), as an I/O error of the disk would.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	g.dir = file
	first := g.Sync(context.Background())
	if first == nil {
		t.Fatal("a sync whose fsync round failed returned nil")
	}
	select {
	case <-g.Failed():
	default:
		t.Error("Failed is not closed after a failed round")
	}
	rounds, _ := g.Stats()
	if err := g.Sync(context.Background()); err == nil || err.Error() != first.Error() {
		t.Errorf("the sync after a failure: got %v, want the first failure again", err)
	}
	if again, _ := g.Stats(); again != rounds {
		t.Errorf("a round ran after the failure (%d, then %d)", rounds, again)
	}
}

func TestStreamSync_GatherWait(t *testing.T) {
	for _, c := range []struct {
		expect, pending int
		gap, want       time.Duration
	}{
		{expect: 1, pending: 1, gap: 100 * time.Microsecond, want: 0},                      // a lone writer
		{expect: 4, pending: 4, gap: 100 * time.Microsecond, want: 0},                      // all there
		{expect: 4, pending: 1, gap: 100 * time.Microsecond, want: 300 * time.Microsecond}, // three to come
		{expect: 4, pending: 2, gap: time.Millisecond, want: MaxGather},                    // bounded
		{expect: 4, pending: 1, gap: 3 * time.Second, want: 0},                             // calls seconds apart
	} {
		g := &StreamSync{expect: c.expect, pending: c.pending, gap: c.gap}
		if got := g.gatherWait(); got != c.want {
			t.Errorf("expect %d, pending %d, gap %s: wait %s, want %s", c.expect, c.pending, c.gap, got, c.want)
		}
	}
}
