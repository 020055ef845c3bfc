package natsjs_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/nats-io/nats.go/jetstream"
)

func TestLog_Conformance(t *testing.T) {
	eventstest.Run(t, func(t *testing.T) events.Log {
		return startNode(t, t.TempDir(), embeddednats.SyncAlways).open(t)
	})
}

// appendN appends n suite events to l and returns them with Seq set.
func appendN(tb testing.TB, l events.Log, n int) []events.Event {
	tb.Helper()
	evs := make([]events.Event, n)
	for i := range evs {
		evs[i] = eventstest.Event(tb, i)
		seq, err := l.Append(testCtx(tb), evs[i])
		if err != nil {
			tb.Fatalf("append %d: %v", i, err)
		}
		evs[i].Seq = seq
	}
	return evs
}

// replayAll returns every event in l.
func replayAll(tb testing.TB, l events.Log) []events.Event {
	tb.Helper()
	var got []events.Event
	err := l.Replay(testCtx(tb), 1, func(ev events.Event) error {
		got = append(got, ev)
		return nil
	})
	if err != nil {
		tb.Fatalf("Replay: %v", err)
	}
	return got
}

func TestLog_Reopen(t *testing.T) {
	dir := t.TempDir()
	first := startNode(t, dir, embeddednats.SyncAlways)
	want := appendN(t, first.open(t), 20)
	first.stop(t)

	l := startNode(t, dir, embeddednats.SyncAlways).open(t)
	got := replayAll(t, l)
	if len(got) != len(want) {
		t.Fatalf("got %d events after reopen, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].ID != want[i].ID || got[i].Seq != want[i].Seq {
			t.Errorf("event %d: got id %s seq %d, want id %s seq %d", i, got[i].ID, got[i].Seq, want[i].ID, want[i].Seq)
		}
	}
	if last, err := l.LastSeq(testCtx(t)); err != nil || last != 20 {
		t.Errorf("LastSeq: got %d, %v, want 20, nil", last, err)
	}
}

func TestLog_DedupeAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	first := startNode(t, dir, embeddednats.SyncAlways)
	evs := appendN(t, first.open(t), 3)
	first.stop(t)

	l := startNode(t, dir, embeddednats.SyncAlways).open(t)
	retry := evs[1]
	retry.Seq = 0
	seq, err := l.Append(testCtx(t), retry)
	if err != nil {
		t.Fatalf("retried Append: %v", err)
	}
	if seq != 2 {
		t.Errorf("retried Append: got seq %d, want 2", seq)
	}
	if last, err := l.LastSeq(testCtx(t)); err != nil || last != 3 {
		t.Errorf("LastSeq: got %d, %v, want 3, nil", last, err)
	}
}

func TestLog_AppendOtherWorkspace(t *testing.T) {
	l := startNode(t, t.TempDir(), embeddednats.SyncAlways).open(t)
	ev := eventstest.Event(t, 0)
	ev.WorkspaceID = "ws-ffffffffffffffffffffffffffffffff"
	if _, err := l.Append(testCtx(t), ev); !errors.Is(err, events.ErrMalformed) {
		t.Errorf("got error %v, want one wrapping ErrMalformed", err)
	}
}

func TestLog_ReplayUndecodable(t *testing.T) {
	n := startNode(t, t.TempDir(), embeddednats.SyncAlways)
	l := n.open(t)
	appendN(t, l, 2)
	js, err := jetstream.New(n.nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(testCtx(t), events.Subject(workspace, events.TypeRefer), []byte("not json")); err != nil {
		t.Fatal(err)
	}
	calls := 0
	err = l.Replay(testCtx(t), 1, func(events.Event) error { calls++; return nil })
	if !errors.Is(err, events.ErrMalformed) || !strings.Contains(err.Error(), "seq 3") {
		t.Errorf("got error %v, want one wrapping ErrMalformed that names seq 3", err)
	}
	if calls != 2 {
		t.Errorf("got %d calls before the bad event, want 2", calls)
	}
}

func TestLog_SubscribeFromFuture(t *testing.T) {
	l := startNode(t, t.TempDir(), embeddednats.SyncAlways).open(t)
	appendN(t, l, 2)
	ctx, cancel := context.WithCancel(testCtx(t))
	got := make(chan uint64, 10)
	done := make(chan error, 1)
	go func() { done <- l.Subscribe(ctx, 4, func(ev events.Event) error { got <- ev.Seq; return nil }) }()
	appendN(t, l, 3)
	select {
	case seq := <-got:
		if seq != 4 {
			t.Errorf("got first seq %d, want 4", seq)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("timed out waiting for seq 4")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("got Subscribe error %v after cancel, want context.Canceled", err)
	}
}

func TestOpen(t *testing.T) {
	t.Run("StreamConfig", func(t *testing.T) {
		n := startNode(t, t.TempDir(), embeddednats.SyncAlways)
		l := n.open(t)
		appendN(t, l, 3)
		js, err := jetstream.New(n.nc)
		if err != nil {
			t.Fatal(err)
		}
		st, err := js.Stream(testCtx(t), natsjs.StreamName(workspace))
		if err != nil {
			t.Fatal(err)
		}
		cfg := st.CachedInfo().Config
		if !cfg.DenyDelete || !cfg.DenyPurge {
			t.Errorf("got DenyDelete %v DenyPurge %v, want both true", cfg.DenyDelete, cfg.DenyPurge)
		}
		if got, want := cfg.Duplicates, natsjs.DefaultDedupeWindow; got != want {
			t.Errorf("got duplicate window %v, want %v", got, want)
		}
		if got, want := cfg.Storage, jetstream.FileStorage; got != want {
			t.Errorf("got storage %v, want %v", got, want)
		}
		if got, want := cfg.Metadata["clumsies_schema"], "1"; got != want {
			t.Errorf("got clumsies_schema %q, want %q", got, want)
		}
		if got, want := strings.Join(cfg.Subjects, ","), events.StreamSubjects(workspace); got != want {
			t.Errorf("got subjects %q, want %q", got, want)
		}
		if err := st.Purge(testCtx(t)); err == nil {
			t.Errorf("got Purge error nil, want one")
		}
		if err := st.DeleteMsg(testCtx(t), 1); err == nil {
			t.Errorf("got DeleteMsg error nil, want one")
		}
		if last, err := l.LastSeq(testCtx(t)); err != nil || last != 3 {
			t.Errorf("LastSeq after purge and delete attempts: got %d, %v, want 3, nil", last, err)
		}
	})

	t.Run("BindsExisting", func(t *testing.T) {
		n := startNode(t, t.TempDir(), embeddednats.SyncAlways)
		appendN(t, n.open(t), 4)
		if last, err := n.open(t).LastSeq(testCtx(t)); err != nil || last != 4 {
			t.Errorf("LastSeq of a second Open: got %d, %v, want 4, nil", last, err)
		}
	})

	t.Run("DedupeWindow", func(t *testing.T) {
		n := startNode(t, t.TempDir(), embeddednats.SyncAlways)
		l, err := natsjs.Open(testCtx(t), n.nc, workspace, natsjs.Options{DedupeWindow: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		js, _ := jetstream.New(n.nc)
		st, err := js.Stream(testCtx(t), l.Stream())
		if err != nil {
			t.Fatal(err)
		}
		if got, want := st.CachedInfo().Config.Duplicates, time.Minute; got != want {
			t.Errorf("got duplicate window %v, want %v", got, want)
		}
	})

	t.Run("AnExistingStreamsSettings", func(t *testing.T) {
		// A stream created by an earlier version (a window of 10 minutes,
		// no limit per subject) gets the window Open is given and the
		// limit, and keeps its events and its de-duplication.
		n := startNode(t, t.TempDir(), embeddednats.SyncAlways)
		js, _ := jetstream.New(n.nc)
		earlier := natsjs.StreamConfig(natsjs.WorkspaceLayout(workspace), natsjs.Options{DedupeWindow: 10 * time.Minute})
		earlier.MaxMsgsPerSubject = -1
		if _, err := js.CreateStream(testCtx(t), earlier); err != nil {
			t.Fatal(err)
		}
		old, err := natsjs.Open(testCtx(t), n.nc, workspace, natsjs.Options{DedupeWindow: 10 * time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		ev := eventstest.Event(t, 0)
		seq, err := old.Append(testCtx(t), ev)
		if err != nil {
			t.Fatal(err)
		}
		l := n.open(t)
		st, err := js.Stream(testCtx(t), l.Stream())
		if err != nil {
			t.Fatal(err)
		}
		cfg := st.CachedInfo().Config
		if got, want := cfg.Duplicates, natsjs.DefaultDedupeWindow; got != want {
			t.Errorf("got duplicate window %v, want %v", got, want)
		}
		if got, want := cfg.MaxMsgsPerSubject, int64(math.MaxInt64); got != want {
			t.Errorf("got a limit per subject of %d, want %d", got, want)
		}
		if !cfg.DenyDelete || !cfg.DenyPurge || cfg.Metadata["clumsies_schema"] == "" || cfg.MaxMsgs != -1 || cfg.MaxBytes != -1 {
			t.Errorf("the update changed the rest of the configuration: %+v", cfg)
		}
		if again, err := l.Append(testCtx(t), ev); err != nil || again != seq {
			t.Errorf("append of the same event after the update: got seq %d, %v, want %d", again, err, seq)
		}
		if last, err := l.LastSeq(testCtx(t)); err != nil || last != 1 {
			t.Errorf("LastSeq: got %d, %v, want 1", last, err)
		}
	})

	t.Run("InvalidWorkspaceID", func(t *testing.T) {
		n := startNode(t, t.TempDir(), embeddednats.SyncAlways)
		if _, err := natsjs.Open(testCtx(t), n.nc, "ws.bad", natsjs.Options{}); !errors.Is(err, events.ErrMalformed) {
			t.Errorf("got error %v, want one wrapping ErrMalformed", err)
		}
	})

	t.Run("Domain", func(t *testing.T) {
		srv := &embeddednats.Server{Dir: t.TempDir(), Domain: "hubless"}
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		nc, err := srv.Connect()
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		l, err := natsjs.Open(testCtx(t), nc, workspace, natsjs.Options{Domain: "hubless"})
		if err != nil {
			t.Fatalf("Open in domain: %v", err)
		}
		appendN(t, l, 2)
		if got := replayAll(t, l); len(got) != 2 {
			t.Errorf("got %d events, want 2", len(got))
		}
	})
}

func TestOpen_Incompatible(t *testing.T) {
	name := natsjs.StreamName(workspace)
	subjects := []string{events.StreamSubjects(workspace)}
	for _, tc := range []struct {
		name string
		cfg  jetstream.StreamConfig
		want string
	}{
		{"NewerSchema", jetstream.StreamConfig{Name: name, Subjects: subjects,
			Metadata: map[string]string{"clumsies_schema": "2"}}, "upgrade clumsies"},
		{"NoSchema", jetstream.StreamConfig{Name: name, Subjects: subjects}, "did not create it"},
		{"BadSchema", jetstream.StreamConfig{Name: name, Subjects: subjects,
			Metadata: map[string]string{"clumsies_schema": "one"}}, "not a version number"},
		{"OtherSubjects", jetstream.StreamConfig{Name: name, Subjects: []string{"clumsies." + workspace + ".attest.>"},
			Metadata: map[string]string{"clumsies_schema": "1"}}, "has subjects"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := startNode(t, t.TempDir(), embeddednats.SyncAlways)
			js, err := jetstream.New(n.nc)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := js.CreateStream(testCtx(t), tc.cfg); err != nil {
				t.Fatal(err)
			}
			_, err = natsjs.Open(testCtx(t), n.nc, workspace, natsjs.Options{})
			if !errors.Is(err, events.ErrIncompatible) {
				t.Fatalf("got error %v, want one wrapping ErrIncompatible", err)
			}
			for _, want := range []string{name, tc.want} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("got message %q, want it to contain %q", err, want)
				}
			}
		})
	}
}

func TestLog_ReadLeavesNoConsumers(t *testing.T) {
	n := startNode(t, t.TempDir(), embeddednats.SyncAlways)
	l := n.open(t)
	appendN(t, l, 5)
	replayAll(t, l)
	ctx, cancel := context.WithCancel(testCtx(t))
	done := make(chan error, 1)
	go func() {
		done <- l.Subscribe(ctx, 1, func(ev events.Event) error {
			if ev.Seq == 5 {
				cancel()
			}
			return nil
		})
	}()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("got Subscribe error %v, want context.Canceled", err)
	}
	st, err := jetStream(t, n.nc).Stream(testCtx(t), l.Stream())
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := info.State.Consumers; got != 0 {
		t.Errorf("got %d consumers after Replay and Subscribe, want 0", got)
	}
}
