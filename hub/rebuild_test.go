package hub_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/projections/engine"
)

// projectionRows returns every row of the read models of the stopped hub
// th, one per line.
func projectionRows(t *testing.T, th *testHub) []byte {
	t.Helper()
	db, err := pebble.Open(filepath.Join(th.cfg.DataDir(), "projections"), &pebble.Options{ReadOnly: true, Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b bytes.Buffer
	if err := engine.Dump(db, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// waitApplied waits until th's projector has applied the aggregate
// through its last message and counted want events.
func waitApplied(t *testing.T, th *testHub, want uint64) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		st, err := th.h.Stats(hub.Query{})
		if err != nil {
			t.Fatal(err)
		}
		if st.Totals.Events >= want && th.h.Health(context.Background()).Applied == st.Applied {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hub counted %d events after %s, want %d", st.Totals.Events, wait, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestRebuild_SameRows checks that the read models the hub kept as the
// aggregate grew (in batches as its nodes sent them, across a restart)
// and those `hub rebuild` applies again from the aggregate's first
// message hold the same rows, and that Rebuild refuses while the hub
// runs, and that one that fails leaves the read models as they were.
func TestRebuild_SameRows(t *testing.T) {
	th := newTestHub(t)
	a := joinNode(t, th, "red", "")
	b := joinNode(t, th, "blue", "")
	a.appendN(t, 30)
	b.appendN(t, 12)
	waitApplied(t, th, 42)
	th.stop()
	th.start(t)
	a.appendN(t, 5)
	waitApplied(t, th, 47)

	if _, err := hub.Rebuild(context.Background(), th.cfg, nil); err == nil {
		t.Fatal("Rebuild ran while the hub was running")
	}
	a.close()
	b.close()
	th.stop()
	kept := projectionRows(t, th)

	// A rebuild that fails (here its context has ended) leaves the read
	// models as they were, and nothing beside them.
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := hub.Rebuild(ended, th.cfg, nil); err == nil {
		t.Fatal("Rebuild succeeded with its context ended")
	}
	if after := projectionRows(t, th); !bytes.Equal(after, kept) {
		t.Fatalf("a failed rebuild changed the read models:\nafter:\n%s\nkept:\n%s", after, kept)
	}
	for _, beside := range []string{".new", ".old"} {
		if _, err := os.Stat(filepath.Join(th.cfg.DataDir(), "projections"+beside)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("projections%s is there after a failed rebuild (%v)", beside, err)
		}
	}

	applied, err := hub.Rebuild(context.Background(), th.cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if applied == 0 {
		t.Fatal("the rebuild applied nothing")
	}
	if rebuilt := projectionRows(t, th); !bytes.Equal(rebuilt, kept) {
		t.Fatalf("the rebuilt read models differ from those kept:\nrebuilt:\n%s\nkept:\n%s", rebuilt, kept)
	}
}

// quiet drops pebble's messages.
type quiet struct{}

func (quiet) Infof(string, ...any)           {}
func (quiet) Errorf(string, ...any)          {}
func (quiet) Fatalf(format string, a ...any) { panic(fmt.Sprintf(format, a...)) }
