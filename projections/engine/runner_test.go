package engine

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// memSource is a log of items in memory for the runner's tests: a source
// the runner follows as it follows a ledger or the hub's aggregate. It can
// fail a subscription, or go silent, to test what the runner does then.
type memSource struct {
	mu    sync.Mutex
	items []item
	grown chan struct{} // closed and replaced by add

	failAt   uint64 // the first subscription to reach this seq fails
	silentAt uint64 // the first subscription to reach this seq delivers nothing more
	subs     int
}

func newMemSource(words ...string) *memSource {
	s := &memSource{grown: make(chan struct{})}
	s.add(words...)
	return s
}

func (s *memSource) add(words ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range words {
		s.items = append(s.items, item{uint64(len(s.items) + 1), w})
	}
	close(s.grown)
	s.grown = make(chan struct{})
}

func (s *memSource) LastSeq(context.Context) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return uint64(len(s.items)), nil
}

var errSource = errors.New("source: connection lost")

func (s *memSource) Subscribe(ctx context.Context, from uint64, fn func(item) error) error {
	s.mu.Lock()
	s.subs++
	s.mu.Unlock()
	for seq := max(from, 1); ; seq++ {
		s.mu.Lock()
		for uint64(len(s.items)) < seq {
			grown := s.grown
			s.mu.Unlock()
			select {
			case <-grown:
			case <-ctx.Done():
				return ctx.Err()
			}
			s.mu.Lock()
		}
		it := s.items[seq-1]
		fail := seq == s.failAt
		silent := seq == s.silentAt
		if fail {
			s.failAt = 0
		}
		if silent {
			s.silentAt = 0
		}
		s.mu.Unlock()
		switch {
		case fail:
			return fmt.Errorf("deliver seq %d: %w", seq, errSource)
		case silent:
			<-ctx.Done()
			return ctx.Err()
		}
		if err := fn(it); err != nil {
			return err
		}
	}
}

func (s *memSource) subscriptions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.subs
}

// runState is the state of runStore: the test's models and the checkpoint.
type runState struct {
	reg        Registry[item]
	lengths    *lengths
	checkpoint uint64
}

func (st *runState) Registry() *Registry[item] { return &st.reg }
func (st *runState) WriteMeta(w *RowWriter) {
	w.Set([]byte("cp"), binary.BigEndian.AppendUint64(nil, st.checkpoint))
}

func loadRunState(db *pebble.DB) (*runState, error) {
	st := &runState{}
	st.lengths = Register(&st.reg, &lengths{n: map[int]uint64{}, touched: map[int]bool{}})
	Register(&st.reg, &firsts{NewDiskRows(db)})
	err := st.reg.Load(db, func(k string, v []byte) error {
		if k != "cp" {
			return ErrUnknownRow
		}
		st.checkpoint = binary.BigEndian.Uint64(v)
		return nil
	})
	return st, err
}

// runStore is a store as the runner's contract asks: Apply skips what it
// has, commits with a Committer and advances its Progress.
type runStore struct {
	db        *pebble.DB
	committer Committer[item, *runState]
	st        *runState
	progress  Progress

	mu      sync.Mutex
	fault   func(batch []item) error // asked before every commit
	batches int
}

func openRunStore(t *testing.T, db *pebble.DB) *runStore {
	t.Helper()
	s := &runStore{db: db, committer: Committer[item, *runState]{DB: db, Load: loadRunState}}
	var err error
	if s.st, err = s.committer.Load(db); err != nil {
		t.Fatal(err)
	}
	s.progress.Set(s.st.checkpoint)
	return s
}

func (s *runStore) apply(batch []item) error {
	st := s.st
	for _, it := range batch {
		if it.seq > st.checkpoint {
			st.reg.Apply(it)
			st.checkpoint = it.seq
		}
	}
	s.mu.Lock()
	fault := s.fault
	s.batches++
	s.mu.Unlock()
	var check func() error
	if fault != nil {
		check = func() error { return fault(batch) }
	}
	next, err := s.committer.Commit(st, nil, check)
	s.st = next
	if err != nil {
		return err
	}
	s.progress.Advance(st.checkpoint)
	return nil
}

func (s *runStore) runner(batchSize int) *Runner[item] {
	return &Runner[item]{Seq: func(it item) uint64 { return it.seq }, Apply: s.apply, Progress: &s.progress, BatchSize: batchSize}
}

// running runs r over src until the test ends; stop ends it and returns
// Run's error.
func running(t *testing.T, r *Runner[item], src Source[item]) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx, src) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	t.Cleanup(func() { stop() })
	return stop
}

// waitFor waits (a minute at most, a failure rather than a timing) until
// p reaches seq.
func waitFor(t *testing.T, p *Progress, seq uint64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := p.WaitFor(ctx, seq); err != nil {
		t.Fatalf("wait for seq %d (at %d): %v", seq, p.Seq(), err)
	}
}

var runWords = strings.Fields("alpha beta gamma delta be al gam epsilon b zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega")

// TestRunner_BatchesDoNotMatter runs the same items, some there at the
// start and some appended while the runner follows, through runners of
// several batch sizes: the rows are the same, and equal those of one
// commit of everything.
func TestRunner_BatchesDoNotMatter(t *testing.T) {
	want := oneCommit(t)
	half := len(runWords) / 2
	for _, size := range []int{1, 3, 1000} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			src := newMemSource(runWords[:half]...)
			s := openRunStore(t, memDB(t))
			stop := running(t, s.runner(size), src)
			waitFor(t, &s.progress, uint64(half))
			for _, w := range runWords[half:] {
				src.add(w)
			}
			waitFor(t, &s.progress, uint64(len(runWords)))
			if err := stop(); !errors.Is(err, context.Canceled) {
				t.Fatalf("run = %v, want context.Canceled", err)
			}
			if got := dump(t, s.db); got != want {
				t.Fatalf("rows in batches of %d:\n%s\nwant (one commit):\n%s", size, got, want)
			}
			if size == 1 && s.batches != len(runWords) {
				t.Fatalf("%d batches of 1 for %d items", s.batches, len(runWords))
			}
		})
	}
}

// TestRunner_ReloadsAfterFailedCommit fails the commit of the batch that
// holds seq 5 once: Run returns the error, the models are loaded again (so
// the batch, applied again, counts once in memory and on disk), and a
// runner with Retry carries on by itself.
func TestRunner_ReloadsAfterFailedCommit(t *testing.T) {
	want := oneCommit(t)

	fault := errors.New("disk full")
	faulty := func(s *runStore) {
		failed := false
		s.fault = func(batch []item) error {
			for _, it := range batch {
				if it.seq == 5 && !failed {
					failed = true
					return fault
				}
			}
			return nil
		}
	}
	t.Run("NoRetry", func(t *testing.T) {
		s := openRunStore(t, memDB(t))
		faulty(s)
		err := s.runner(4).Run(context.Background(), newMemSource(runWords...))
		if !errors.Is(err, fault) {
			t.Fatalf("run = %v, want %v", err, fault)
		}
		if s.progress.Seq() != 4 || s.st.checkpoint != 4 {
			t.Fatalf("after a failed commit: progress %d, state at %d; want both at 4", s.progress.Seq(), s.st.checkpoint)
		}
		// The same store goes on from its checkpoint.
		stop := running(t, s.runner(4), newMemSource(runWords...))
		waitFor(t, &s.progress, uint64(len(runWords)))
		stop()
		if got := dump(t, s.db); got != want {
			t.Fatalf("rows after a failed commit and a second run:\n%s\nwant:\n%s", got, want)
		}
	})
	t.Run("Retry", func(t *testing.T) {
		s := openRunStore(t, memDB(t))
		faulty(s)
		r := s.runner(4)
		r.Retry = &Backoff{Min: time.Millisecond, Max: 10 * time.Millisecond}
		var retried []error
		var mu sync.Mutex
		r.OnRetry = func(err error, _ time.Duration) { mu.Lock(); retried = append(retried, err); mu.Unlock() }
		stop := running(t, r, newMemSource(runWords...))
		waitFor(t, &s.progress, uint64(len(runWords)))
		stop()
		if got := dump(t, s.db); got != want {
			t.Fatalf("rows after a failed commit and a retry:\n%s\nwant:\n%s", got, want)
		}
		if len(retried) != 1 || !errors.Is(retried[0], fault) {
			t.Fatalf("retried after %v, want once after %v", retried, fault)
		}
		if n := s.st.lengths.n[5]; n != 7 {
			t.Fatalf("words of 5 letters in memory: %d, want 7", n)
		}
	})
}

// TestRunner_RetriesAfterSourceError has the source fail once at seq 7:
// without Retry, Run returns its error; with it, Run follows again from
// the checkpoint and applies everything once.
func TestRunner_RetriesAfterSourceError(t *testing.T) {
	s := openRunStore(t, memDB(t))
	src := newMemSource(runWords...)
	src.failAt = 7
	if err := s.runner(2).Run(context.Background(), src); !errors.Is(err, errSource) {
		t.Fatalf("run = %v, want %v", err, errSource)
	}

	s = openRunStore(t, memDB(t))
	src = newMemSource(runWords...)
	src.failAt = 7
	r := s.runner(2)
	r.Retry = &Backoff{Min: time.Millisecond, Max: time.Millisecond}
	stop := running(t, r, src)
	waitFor(t, &s.progress, uint64(len(runWords)))
	stop()
	if n := src.subscriptions(); n != 2 {
		t.Fatalf("%d subscriptions, want 2 (one failed, one again from the checkpoint)", n)
	}
	if got, want := dump(t, s.db), oneCommit(t); got != want {
		t.Fatalf("rows after a retry:\n%s\nwant (one commit):\n%s", got, want)
	}
}

// oneCommit returns the rows of runWords applied in one commit.
func oneCommit(t *testing.T) string {
	t.Helper()
	return commitOf(t, runWords...)
}

// commitOf returns the rows of words applied in one commit.
func commitOf(t *testing.T, words ...string) string {
	t.Helper()
	s := openRunStore(t, memDB(t))
	var all []item
	for i, w := range words {
		all = append(all, item{uint64(i + 1), w})
	}
	if err := s.apply(all); err != nil {
		t.Fatal(err)
	}
	return dump(t, s.db)
}

// TestRunner_StallFollowsAgain has the first subscription go silent at
// seq 4 while the source holds more: the stall watch ends it, and the
// runner subscribes again.
func TestRunner_StallFollowsAgain(t *testing.T) {
	s := openRunStore(t, memDB(t))
	src := newMemSource(runWords...)
	src.silentAt = 4
	r := s.runner(1000)
	r.Stall = &Stall{Check: 5 * time.Millisecond, After: 20 * time.Millisecond}
	r.Retry = &Backoff{Min: time.Millisecond, Max: time.Millisecond}
	var mu sync.Mutex
	var retried []error
	r.OnRetry = func(err error, _ time.Duration) { mu.Lock(); retried = append(retried, err); mu.Unlock() }
	stop := running(t, r, src)
	waitFor(t, &s.progress, uint64(len(runWords)))
	stop()
	mu.Lock()
	defer mu.Unlock()
	if len(retried) != 1 || !errors.Is(retried[0], ErrStalled) {
		t.Fatalf("retried after %v, want once after a stall", retried)
	}
	if n := src.subscriptions(); n != 2 {
		t.Fatalf("%d subscriptions, want 2", n)
	}
}

// TestRunner_WaitFor checks the waits and the linger: an item that needs
// no prompt commit waits (here up to an hour) for more, unless somebody
// waits for it; a prompt item is committed at once; Close ends every
// wait.
func TestRunner_WaitFor(t *testing.T) {
	s := openRunStore(t, memDB(t))
	src := newMemSource()
	r := s.runner(1000)
	r.Linger = time.Hour
	r.Prompt = func(it item) bool { return strings.HasPrefix(it.word, "!") }
	running(t, r, src)

	src.add("quiet")
	waitFor(t, &s.progress, 1) // a waiter ends the linger
	src.add("calm", "still")
	src.add("!loud") // a prompt item ends it too

	deadline := time.Now().Add(time.Minute) // a failure, not a timing
	for s.progress.Seq() < 4 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond) // polling: no WaitFor, so nobody waits
	}
	if s.progress.Seq() != 4 {
		t.Fatalf("progress %d after a prompt item, want 4", s.progress.Seq())
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.progress.WaitFor(ctx, 5); !errors.Is(err, context.Canceled) {
		t.Fatalf("wait with a cancelled ctx = %v", err)
	}
	closed := errors.New("closed")
	done := make(chan error, 1)
	go func() { done <- s.progress.WaitFor(context.Background(), 5) }()
	s.progress.Close(closed)
	if err := <-done; !errors.Is(err, closed) {
		t.Fatalf("wait across Close = %v, want %v", err, closed)
	}
	if err := s.progress.WaitFor(context.Background(), 4); err != nil {
		t.Fatalf("wait for an applied seq after Close = %v", err)
	}
}

// TestRunner_BehindStartsAgain follows a source, then one made again
// that holds fewer items than the checkpoint: Behind learns the new
// source's last sequence, the store throws its rows away, and the runner
// applies the new source from its first item, as a new store would.
func TestRunner_BehindStartsAgain(t *testing.T) {
	s := openRunStore(t, memDB(t))
	stop := running(t, s.runner(4), newMemSource(runWords...))
	waitFor(t, &s.progress, uint64(len(runWords)))
	stop()

	again := []string{"one", "three", "five"}
	r := s.runner(4)
	behind := make(chan uint64, 1)
	r.Behind = func(last uint64) error {
		if err := s.db.DeleteRange([]byte{}, []byte{0xff}, pebble.Sync); err != nil {
			return err
		}
		st, err := s.committer.Reload()
		if err != nil {
			return err
		}
		s.st = st
		s.progress.Set(0)
		behind <- last
		return nil
	}
	running(t, r, newMemSource(again...))
	select {
	case last := <-behind:
		if last != uint64(len(again)) {
			t.Fatalf("Behind learned the source ends at %d, want %d", last, len(again))
		}
	case <-time.After(time.Minute): // a failure, not a timing
		t.Fatalf("Behind not called for a source of %d items under a checkpoint at %d", len(again), s.progress.Seq())
	}
	waitFor(t, &s.progress, uint64(len(again)))
	if got, want := dump(t, s.db), commitOf(t, again...); got != want {
		t.Fatalf("rows after the source was made again:\n%s\nwant (its items in one commit):\n%s", got, want)
	}
}
