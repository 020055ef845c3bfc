package hub

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// answer is a cached value for the tests: what computed it.
type answer struct{ text string }

// counted returns a computation of text that counts its calls in n.
func counted(n *int, text string) func() (answer, error) {
	return func() (answer, error) { *n++; return answer{text}, nil }
}

// TestCheckpointCache_OnePerCheckpoint checks that an answer is computed
// once per checkpoint and key, again at a newer checkpoint (the older
// answers are dropped), and not kept when computed from a snapshot older
// than the latest.
func TestCheckpointCache_OnePerCheckpoint(t *testing.T) {
	var c checkpointCache[answer]
	a, b := statsKey{member: "ann"}, statsKey{member: "bob"}
	n := 0
	for range 3 {
		if v, err := c.get(5, a, counted(&n, "a@5")); err != nil || v.text != "a@5" {
			t.Fatalf("get a at 5: %v, %v", v, err)
		}
	}
	c.get(5, b, counted(&n, "b@5"))
	if n != 2 {
		t.Fatalf("computed %d answers for 2 keys at one checkpoint, want 2", n)
	}
	if v, _ := c.get(6, a, counted(&n, "a@6")); v.text != "a@6" || n != 3 {
		t.Fatalf("at checkpoint 6: %q after %d computations, want a@6 after 3", v.text, n)
	}
	if entries, _ := c.held(); entries != 1 {
		t.Errorf("holds %d answers after checkpoint 6, want 1 (those of 5 dropped)", entries)
	}
	for range 2 {
		if v, _ := c.get(5, a, counted(&n, "a@5 again")); v.text != "a@5 again" {
			t.Fatalf("an older snapshot got %q, want its own answer", v.text)
		}
	}
	if v, _ := c.get(6, a, counted(&n, "wrong")); v.text != "a@6" || n != 5 {
		t.Errorf("after two reads of an older snapshot: %q after %d computations, want a@6 after 5", v.text, n)
	}
}

// TestCheckpointCache_Bounded checks the bounds: at most max answers, the
// least recently used dropped first; at most maxBytes, an answer heavier
// than that answered but not kept, nor making the cache drop the others;
// a failed computation not kept.
func TestCheckpointCache_Bounded(t *testing.T) {
	c := checkpointCache[answer]{max: 2, maxBytes: 1 << 20}
	k := func(i int) statsKey { return statsKey{member: strings.Repeat("m", i)} }
	n := 0
	c.get(1, k(1), counted(&n, "1"))
	c.get(1, k(2), counted(&n, "2"))
	c.get(1, k(1), counted(&n, "1")) // 1 is now the most recently used
	c.get(1, k(3), counted(&n, "3")) // drops 2
	if entries, _ := c.held(); entries != 2 {
		t.Errorf("holds %d answers, want at most 2", entries)
	}
	c.get(1, k(1), counted(&n, "1"))
	if n != 3 {
		t.Errorf("computed %d answers, want 3 (1 kept as the most recently used)", n)
	}
	c.get(1, k(2), counted(&n, "2"))
	if n != 4 {
		t.Errorf("computed %d answers, want 4 (2 dropped)", n)
	}

	big := strings.Repeat("x", 600)
	w := checkpointCache[answer]{max: 10, maxBytes: 1000}
	w.get(1, k(1), counted(&n, big))
	w.get(1, k(2), counted(&n, big)) // both weigh more than half the bound
	if entries, bytes := w.held(); entries != 1 || bytes > 1000 || bytes < 600 {
		t.Errorf("holds %d answers of %d bytes, want 1 under 1000", entries, bytes)
	}
	heavy := n
	heavyText := strings.Repeat("y", 2000)
	for range 2 {
		if v, err := w.get(1, k(3), counted(&n, heavyText)); err != nil || v.text != heavyText {
			t.Fatalf("an answer heavier than the bound: %d bytes, %v; want it answered", len(v.text), err)
		}
	}
	if entries, bytes := w.held(); entries != 1 || bytes > 1000 || bytes < 600 {
		t.Errorf("after an answer heavier than the bound: %d answers of %d bytes, want the one before it alone, under 1000", entries, bytes)
	}
	if n != heavy+2 {
		t.Errorf("the heavy answer was computed %d times for 2 gets, want twice (not kept)", n-heavy)
	}

	fails := 0
	bad := func() (answer, error) { fails++; return answer{}, errors.New("read failed") }
	for range 2 {
		if _, err := c.get(1, k(9), bad); err == nil {
			t.Fatal("a failed computation answered no error")
		}
	}
	if fails != 2 {
		t.Errorf("a failed computation ran %d times for 2 gets, want 2 (not kept)", fails)
	}
}

// TestCheckpointCache_WaitsForOneComputation checks that requests for an
// answer being computed wait for it instead of computing it again.
func TestCheckpointCache_WaitsForOneComputation(t *testing.T) {
	var c checkpointCache[answer]
	release := make(chan struct{})
	started := make(chan struct{})
	var mu sync.Mutex
	n := 0
	compute := func() (answer, error) {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if first {
			close(started)
			<-release
		}
		return answer{"one"}, nil
	}
	var wg sync.WaitGroup
	got := make([]answer, 4)
	wg.Add(1)
	go func() { defer wg.Done(); got[0], _ = c.get(1, statsKey{}, compute) }()
	<-started
	for i := 1; i < len(got); i++ {
		wg.Add(1)
		go func() { defer wg.Done(); got[i], _ = c.get(1, statsKey{}, compute) }()
	}
	time.Sleep(100 * time.Millisecond) // the others reach get meanwhile
	close(release)
	wg.Wait()
	if n != 1 {
		t.Errorf("computed %d times for %d concurrent requests, want 1", n, len(got))
	}
	for i, g := range got {
		if g.text != "one" {
			t.Errorf("request %d got %q", i, g.text)
		}
	}
}

// TestSizeOf checks that the weight grows with the strings, slices and
// maps an answer refers to.
func TestSizeOf(t *testing.T) {
	type row struct {
		Name string
		Tags []string
		By   map[string]*row
	}
	small := sizeOf(row{Name: "a"})
	large := sizeOf(row{Name: strings.Repeat("a", 1000), Tags: []string{strings.Repeat("t", 500)},
		By: map[string]*row{"k": {Name: strings.Repeat("b", 700)}}})
	if small <= 0 || large < small+2200 {
		t.Errorf("sizeOf: %d for a small row, %d for one referring to 2,200 more bytes", small, large)
	}
}

// TestTrendOf checks the trends of each period made from a daily one:
// each period's point sums its days (weeks start on Monday), and a period
// only partly in the range has its point.
func TestTrendOf(t *testing.T) {
	days := []string{"2026-10-30", "2026-10-31", "2026-11-01", "2026-11-02", "2026-11-03"}
	var daily []hubwire.TrendPoint
	for i, d := range days {
		n := uint64(i + 1)
		daily = append(daily, hubwire.TrendPoint{Period: d, Events: n, Refs: 10 * n, Loads: 100 * n, Sessions: n, SessionsHooksOnly: 2 * n, Reports: 3 * n})
	}
	point := func(period string, n uint64) hubwire.TrendPoint {
		return hubwire.TrendPoint{Period: period, Events: n, Refs: 10 * n, Loads: 100 * n, Sessions: n, SessionsHooksOnly: 2 * n, Reports: 3 * n}
	}
	for _, c := range []struct {
		period string
		want   []hubwire.TrendPoint
	}{
		{hubwire.PeriodDaily, daily},
		{hubwire.PeriodWeekly, []hubwire.TrendPoint{point("2026-10-26", 1+2+3), point("2026-11-02", 4+5)}},
		{hubwire.PeriodMonthly, []hubwire.TrendPoint{point("2026-10-01", 1+2), point("2026-11-01", 3+4+5)}},
	} {
		got, err := trendOf(daily, c.period)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s trend %+v, want %+v", c.period, got, c.want)
		}
	}
	if _, err := trendOf([]hubwire.TrendPoint{{Period: "someday"}}, hubwire.PeriodWeekly); err == nil {
		t.Error("a trend with a day that is not one gave no error")
	}
}

// TestCheckpointCache_MovedDropsOlderAnswers checks that a checkpoint
// committed drops the answers of older ones with no read, that a read of
// an older snapshot after it is answered but not kept, and that an answer
// being computed meanwhile is answered to its waiters but not kept.
func TestCheckpointCache_MovedDropsOlderAnswers(t *testing.T) {
	var c checkpointCache[answer]
	k := statsKey{member: "ann"}
	n := 0
	c.get(5, k, counted(&n, "a@5"))
	c.moved(5) // the same checkpoint: kept
	if entries, _ := c.held(); entries != 1 {
		t.Fatalf("holds %d answers after the same checkpoint, want 1", entries)
	}
	c.moved(6)
	if entries, bytes := c.held(); entries != 0 || bytes != 0 {
		t.Errorf("holds %d answers of %d bytes after checkpoint 6, want none", entries, bytes)
	}
	if v, _ := c.get(5, k, counted(&n, "a@5 again")); v.text != "a@5 again" {
		t.Errorf("an older snapshot got %q, want its own answer", v.text)
	}
	if entries, _ := c.held(); entries != 0 {
		t.Errorf("kept %d answers of an older snapshot, want none", entries)
	}

	release := make(chan struct{})
	got := make(chan string)
	go func() {
		v, _ := c.get(6, k, func() (answer, error) { <-release; return answer{"a@6"}, nil })
		got <- v.text
	}()
	for {
		c.mu.Lock()
		_, computing := c.entries[k]
		c.mu.Unlock()
		if computing {
			break
		}
		time.Sleep(time.Millisecond)
	}
	c.moved(7)
	close(release)
	if v := <-got; v != "a@6" {
		t.Errorf("the computation under way answered %q, want a@6", v)
	}
	if entries, _ := c.held(); entries != 0 {
		t.Errorf("kept %d answers computed for checkpoint 6 after 7 was committed, want none", entries)
	}
}
