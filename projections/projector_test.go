package projections_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// mixed appends a bit of everything and returns the events.
func mixed(l *ledger) []events.Event {
	l.tb.Helper()
	evs := sampleCatalog(l)
	evs = append(evs,
		l.add(events.TypeSetup, events.SetupData{Hash: "sha256:m"}, inSession("s1")),
		l.add(events.TypeDiscover, events.DiscoverData{Count: 4}, inSession("s2")),
		l.refer(ruleA, []string{"Steps/1", "Style"}),
		l.refer(flowC, []string{"CODING"}, inSession("s2")),
		l.add(events.TypeDraftCreate, events.DraftData{Resource: "rule", ID: "tmp-rule-0123456789ab", Path: "go/N.md", Body: "n"}),
		l.add(events.TypeDraftUpdate, events.DraftData{Resource: "rule", ID: ruleB, Body: "b2"}),
		l.refer(ruleB, []string{"Nope"}, failed("unknown_constraint")),
		l.publish(ruleA, content.KindRule, "go/A2.md", bodyA+"\n## More\n- x\n"),
		l.add(events.TypeDraftSubmit, events.ReviewData{DraftID: ruleB}),
		l.add(events.TypeDraftApply, events.ReviewData{DraftID: ruleB, Revision: 3}),
		l.add(events.TypeCatalogRemove, events.RemoveData{ID: ctxD, Kind: "context", Path: "arch/DESIGN.md"}),
		l.add(events.TypeAgentReport, events.AgentReportData{Summary: "ok"}, inSession("s2")),
		l.refer(ruleA, []string{"More/1"}),
	)
	return evs
}

// readModels renders every read model of s, for comparisons.
func readModels(tb testing.TB, s *projections.Store) string {
	tb.Helper()
	var views []projections.Item
	for _, it := range mustList(tb, s, projections.Filter{}) {
		views = append(views, mustView(tb, s, it.ID))
	}
	return jsonOf([]any{objects(tb, s), allDrafts(tb, s), closedDrafts(tb, s), views, s.Usage(), s.Sessions(), s.Tools(), s.Summary()})
}

func TestStore_Apply(t *testing.T) {
	t.Run("ExactlyOnce", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		evs := mixed(l)
		apply(t, s, evs...)
		before, models := digest(t, s), readModels(t, s)
		apply(t, s, evs...)
		apply(t, s, evs[3:7]...)
		if got := digest(t, s); got != before {
			t.Errorf("digest after reapplying: got %s, want %s", got, before)
		}
		if got := readModels(t, s); got != models {
			t.Errorf("read models after reapplying: got %s, want %s", got, models)
		}
		if got, want := s.Checkpoint(), uint64(len(evs)); got != want {
			t.Errorf("checkpoint: got %d, want %d", got, want)
		}
	})
	t.Run("OverlapApplied", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		evs := mixed(l)
		apply(t, s, evs[:5]...)
		apply(t, s, evs[2:9]...)
		apply(t, s, evs[7:]...)
		if got, want := s.Summary().Events, uint64(len(evs)); got != want {
			t.Errorf("events: got %d, want %d", got, want)
		}
	})
	t.Run("ErrGap", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		evs := mixed(l)
		apply(t, s, evs[:2]...)
		err := s.Apply(evs[2], evs[4])
		if !errors.Is(err, projections.ErrGap) {
			t.Fatalf("got %v, want ErrGap", err)
		}
		if got := s.Checkpoint(); got != 2 {
			t.Errorf("checkpoint: got %d, want 2 (nothing of the call applied)", got)
		}
	})
	t.Run("NoSequence", func(t *testing.T) {
		s := openMem(t)
		ev, _ := events.New(workspace, events.TypeSetup, nil)
		if err := s.Apply(ev); err == nil {
			t.Errorf("got nil, want an error for an event without sequence")
		}
	})
	t.Run("BadPayload", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		good := l.refer(ruleA, []string{"Style"})
		bad := l.add(events.TypeRefer, json.RawMessage(`{"refs":"not a list"}`))
		if err := s.Apply(good, bad); err == nil {
			t.Fatalf("got nil, want a decode error")
		}
		if got := s.Checkpoint(); got != 0 {
			t.Errorf("checkpoint: got %d, want 0", got)
		}
	})
	t.Run("FailedCallsTouchOnlyToolsAndSessions", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, sampleCatalog(l)...)
		before := jsonOf([]any{objects(t, s), allDrafts(t, s), mustList(t, s, projections.Filter{}), s.Usage()})
		tools, sessions := jsonOf(s.Tools()), jsonOf(s.Sessions())
		// Each failure carries a payload that would change something if
		// the projector looked at it.
		apply(t, s,
			l.refer(ruleA, []string{"Style"}, failed("stale_rule_hash")),
			l.add(events.TypeDraftCreate, events.DraftData{Resource: "rule", ID: "tmp-rule-x", Path: "x.md", Body: "x"}, failed("draft_exists")),
			l.add(events.TypeDraftUpdate, events.DraftData{Resource: "rule", ID: ruleA, Body: "x"}, failed("incompatible_draft")),
			l.add(events.TypeDraftDelete, events.DraftData{Resource: "rule", ID: ruleB}, failed("not_found")),
			l.add(events.TypeArtifactError, events.FailureData{Message: "bad"}, failed("invalid_params")),
		)
		if got := jsonOf([]any{objects(t, s), allDrafts(t, s), mustList(t, s, projections.Filter{}), s.Usage()}); got != before {
			t.Errorf("got %s, want %s", got, before)
		}
		if got := jsonOf(s.Tools()); got == tools {
			t.Errorf("tools: got %s unchanged, want the failures counted", got)
		}
		if got := jsonOf(s.Sessions()); got == sessions {
			t.Errorf("sessions: got %s unchanged, want the failures counted", got)
		}
	})
	t.Run("Reopen", func(t *testing.T) {
		fs := vfs.NewMem()
		l := newLedger(t)
		s, err := projections.Open("/db", projections.Options{FS: fs})
		if err != nil {
			t.Fatal(err)
		}
		evs := mixed(l)
		apply(t, s, evs...)
		wantDigest, wantModels := digest(t, s), readModels(t, s)
		if err := s.Close(); err != nil {
			t.Fatalf("close: %v", err)
		}
		s = openAt(t, fs, "/db", projections.Options{})
		if got, want := s.Checkpoint(), uint64(len(evs)); got != want {
			t.Errorf("checkpoint: got %d, want %d", got, want)
		}
		if got := digest(t, s); got != wantDigest {
			t.Errorf("digest: got %s, want %s", got, wantDigest)
		}
		if got := readModels(t, s); got != wantModels {
			t.Errorf("read models: got %s\nwant %s", got, wantModels)
		}
		// The reopened store goes on where it stopped.
		apply(t, s, l.refer(ruleA, []string{"Style"}))
		if got := s.Checkpoint(); got != uint64(len(evs))+1 {
			t.Errorf("checkpoint: got %d, want %d", got, len(evs)+1)
		}
	})
	t.Run("ErrClosed", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		closeQuietly(s)
		if err := s.Apply(l.refer(ruleA, nil)); !errors.Is(err, projections.ErrClosed) {
			t.Errorf("apply: got %v, want ErrClosed", err)
		}
		if _, err := s.View(context.Background(), ruleA); !errors.Is(err, projections.ErrClosed) {
			t.Errorf("view: got %v, want ErrClosed", err)
		}
		if err := s.Close(); !errors.Is(err, projections.ErrClosed) {
			t.Errorf("second close: got %v, want ErrClosed", err)
		}
	})
}

// TestStore_Crash shows that unsynced batches vanish together with their
// checkpoint, and that catching up restores the same bytes.
func TestStore_Crash(t *testing.T) {
	fs := vfs.NewCrashableMem()
	l := newLedger(t)
	evs := mixed(l)
	const durable = 6

	s, err := projections.Open("/db", projections.Options{FS: fs})
	if err != nil {
		t.Fatal(err)
	}
	apply(t, s, evs[:durable]...)
	if err := s.Close(); err != nil { // pebble syncs its log on close
		t.Fatal(err)
	}
	s = openAt(t, fs, "/db", projections.Options{})
	for _, ev := range evs[durable:] {
		apply(t, s, ev) // one NoSync batch each
	}
	want := digest(t, s)
	crashed := fs.CrashClone(vfs.CrashCloneCfg{}) // only what was synced
	closeQuietly(s)

	s = openAt(t, crashed, "/db", projections.Options{})
	if got := s.Checkpoint(); got != durable {
		t.Fatalf("checkpoint after the crash: got %d, want %d", got, durable)
	}
	if got := s.Summary().Events; got != durable {
		t.Errorf("events after the crash: got %d, want %d (rows roll back with the checkpoint)", got, durable)
	}
	if u := s.Usage(); len(u) != 3 || u[0].Refs+u[1].Refs+u[2].Refs != 0 {
		t.Errorf("usage after the crash: got %s, want no refs", jsonOf(u))
	}
	ctx, cancel := context.WithCancel(testCtx(t))
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, l.log) }()
	if err := s.WaitFor(ctx, uint64(len(evs))); err != nil {
		t.Fatalf("wait: %v", err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("run: got %v, want context.Canceled", err)
	}
	if got := digest(t, s); got != want {
		t.Errorf("digest after catching up: got %s, want %s", got, want)
	}
}

func TestStore_WaitFor(t *testing.T) {
	t.Run("ReturnsOnceApplied", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		evs := mixed(l)
		apply(t, s, evs[:2]...)
		if err := s.WaitFor(testCtx(t), 2); err != nil {
			t.Fatalf("wait for an applied seq: %v", err)
		}
		done := make(chan error, 1)
		go func() { done <- s.WaitFor(testCtx(t), 4) }()
		apply(t, s, evs[2])
		select {
		case err := <-done:
			t.Fatalf("got %v before seq 4 was applied, want to wait", err)
		case <-time.After(20 * time.Millisecond):
		}
		apply(t, s, evs[3])
		if err := <-done; err != nil {
			t.Errorf("got %v, want nil", err)
		}
	})
	t.Run("ContextEnds", func(t *testing.T) {
		s := openMem(t)
		ctx, cancel := context.WithCancel(testCtx(t))
		done := make(chan error, 1)
		go func() { done <- s.WaitFor(ctx, 1) }()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want context.Canceled", err)
		}
	})
	t.Run("StoreCloses", func(t *testing.T) {
		s := openMem(t)
		done := make(chan error, 1)
		go func() { done <- s.WaitFor(testCtx(t), 1) }()
		closeQuietly(s)
		if err := <-done; !errors.Is(err, projections.ErrClosed) {
			t.Errorf("got %v, want ErrClosed", err)
		}
	})
}

// TestStore_ConcurrentReads reads every model while Run applies: run it
// with -race. A published body must always match its hash: readers never
// see rows of a batch half applied.
func TestStore_ConcurrentReads(t *testing.T) {
	l, s := newLedger(t), openAt(t, vfs.NewMem(), "/db", projections.Options{BatchSize: 16})
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, l.log) }()

	var readers sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if it, err := s.View(context.Background(), ruleA); err == nil && content.Hash([]byte(it.Body)) != it.Hash {
					t.Errorf("view: body hash %s, item hash %s", content.Hash([]byte(it.Body)), it.Hash)
					return
				}
				if o, err := s.Object(ruleA); err == nil && content.Hash([]byte(o.Body)) != o.Hash {
					t.Errorf("object: body does not match its hash")
					return
				}
				_, _ = s.List(context.Background(), projections.Filter{Query: "go"})
				_, _ = s.Objects()
				_, _ = s.Digest()
				_, _ = s.ObjectIDByPath(content.NSRule, "go/A.md")
				_ = s.Usage()
				_ = s.Sessions()
				_ = s.Tools()
				_, _ = s.Drafts()
				_ = s.Summary()
			}
		})
	}
	var last events.Event
	for i := range 300 {
		body := bodyA + string(rune('a'+i%26))
		last = l.publish(ruleA, content.KindRule, "go/A.md", body)
		l.refer(ruleA, []string{"Style"})
		last = l.add(events.TypeDraftUpdate, events.DraftData{Resource: "rule", ID: ruleA, Body: body + "!"})
		if i%3 == 0 {
			last = l.add(events.TypeDraftDiscard, events.DraftData{Resource: "rule", ID: ruleA})
		}
	}
	if err := s.WaitFor(ctx, last.Seq); err != nil {
		t.Fatalf("wait: %v", err)
	}
	close(stop)
	readers.Wait()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("run: got %v, want context.Canceled", err)
	}
}
