package hub_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/projections/engine"
)

// ruleFile is rule i of a pushed tree at version v.
func ruleFile(i, v int) hubwire.CatalogFile {
	return hubwire.CatalogFile{Source: fmt.Sprintf("rules/go/R%d.md", i), Body: fmt.Sprintf("# Rule %d\n\nWhat the rule is for.\n\n## Steps\n\n- version %d\n", i, v)}
}

// ledgerState returns what th's ledger read side has read since the hub
// started, its checkpoint and the ledger's last sequence.
func ledgerState(t *testing.T, th *testHub) (read, checkpoint, last uint64) {
	t.Helper()
	read, checkpoint = th.h.LedgerRead()
	last, err := th.h.Ledger().LastSeq(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return read, checkpoint, last
}

// TestLedger_StartsFromCheckpoint checks that a hub that starts again
// serves its catalog and its decisions from the checkpoint of its
// ledger's read side without reading the ledger again, and goes on after
// it; and that a hub whose read models lack the ledger's rows (an older
// hub's) fills them from its ledger once.
func TestLedger_StartsFromCheckpoint(t *testing.T) {
	th := newTestHub(t)
	for v := range 3 {
		pushFiles(t, th, "blue", ruleFile(1, v), ruleFile(2, v))
	}
	pushFiles(t, th, "red", ruleFile(1, 0))
	read, cp, last := ledgerState(t, th)
	if last != 7 || cp != last || read != last {
		t.Fatalf("read %d events, checkpoint %d, ledger at %d; want 7, 7, 7", read, cp, last)
	}
	manifest := func() hubwire.Manifest {
		t.Helper()
		m, err := th.h.TeamManifest(context.Background(), "blue")
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	want := manifest()

	th.stop()
	th.start(t)
	if read, cp, _ := ledgerState(t, th); read != 0 || cp != last {
		t.Fatalf("started again: read %d events of the ledger, checkpoint %d; want none read, checkpoint %d", read, cp, last)
	}
	res := pushFiles(t, th, "blue", ruleFile(1, 3), ruleFile(2, 2))
	if len(res.Published) != 1 || res.Revision != want.Revision+1 {
		t.Fatalf("a push after the start: %+v, want one change at revision %d", res, want.Revision+1)
	}
	if read, cp, last := ledgerState(t, th); read != 1 || cp != last || last != 8 {
		t.Fatalf("after a push: read %d, checkpoint %d, ledger at %d; want 1, 8, 8", read, cp, last)
	}
	want = manifest()

	// An older hub's read models: every row but the ledger's.
	th.stop()
	db, err := pebble.Open(filepath.Join(th.cfg.DataDir(), "projections"), &pebble.Options{Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteRange([]byte(hub.LedgerRowsPrefix), engine.PrefixEnd(hub.LedgerRowsPrefix), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	th.start(t)
	if read, cp, last := ledgerState(t, th); read != last || cp != last {
		t.Fatalf("started without the ledger's rows: read %d, checkpoint %d, ledger at %d; want the whole ledger read once", read, cp, last)
	}
	if got := manifest(); got.Revision != want.Revision || len(got.Objects) != len(want.Objects) {
		t.Fatalf("catalog after the rows were filled again: %+v, want %+v", got, want)
	}
	res = pushFiles(t, th, "blue", ruleFile(1, 3), ruleFile(2, 3))
	if len(res.Published) != 1 || res.Revision != want.Revision+1 {
		t.Fatalf("a push after the rows were filled again: %+v, want one change at revision %d", res, want.Revision+1)
	}
	th.stop()
	th.start(t)
	if read, cp, last := ledgerState(t, th); read != 0 || cp != last || last != 9 {
		t.Fatalf("started again after the fill: read %d, checkpoint %d, ledger at %d; want 0, 9, 9", read, cp, last)
	}
}

// TestLedger_MadeAgainIsAppliedAgain checks that a hub whose ledger
// holds fewer events than its read side's checkpoint (the stream was
// deleted and made again) applies the new ledger from its first event
// instead of deciding on the old one's sequences.
func TestLedger_MadeAgainIsAppliedAgain(t *testing.T) {
	th := newTestHub(t)
	pushFiles(t, th, "blue", ruleFile(1, 0), ruleFile(2, 0))
	if _, cp, _ := ledgerState(t, th); cp != 2 {
		t.Fatalf("checkpoint %d after a push of two rules, want 2", cp)
	}
	nc, err := th.h.Connect()
	if err != nil {
		t.Fatal(err)
	}
	js, _ := jetstream.New(nc)
	err = js.DeleteStream(context.Background(), hubwire.LedgerStream)
	nc.Close()
	if err != nil {
		t.Fatal(err)
	}
	th.stop()
	th.start(t)
	if read, cp, last := ledgerState(t, th); cp != 0 || last != 0 || read != 0 {
		t.Fatalf("on a ledger made again: read %d, checkpoint %d, ledger at %d; want 0, 0, 0", read, cp, last)
	}
	res := pushFiles(t, th, "blue", ruleFile(1, 0), ruleFile(2, 0), ruleFile(3, 0))
	if len(res.Published) != 1 {
		t.Fatalf("a push on the ledger made again: %+v, want rule 3 published", res)
	}
	if _, cp, last := ledgerState(t, th); cp != 1 || last != 1 {
		t.Fatalf("after the push: checkpoint %d, ledger at %d; want 1, 1", cp, last)
	}
}
