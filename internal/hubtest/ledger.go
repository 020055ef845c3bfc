package hubtest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// HoldCatalogEnv is hub.HoldCatalogEnv, for the tests that run a hub
// process.
const HoldCatalogEnv = hub.HoldCatalogEnv

// Ledger starts the stopped hub of folder dir in this process and returns
// the events of its ledger, in order; the hub is stopped again.
func Ledger(tb testing.TB, dir string) []hubwire.LedgerEvent {
	tb.Helper()
	cfg, err := hub.ReadConfig(dir)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	h, err := hub.Start(ctx, cfg, Logger())
	if err != nil {
		tb.Fatalf("start the hub of %s: %v", dir, err)
	}
	defer h.Close()
	nc, err := h.Connect()
	if err != nil {
		tb.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	st, err := js.Stream(ctx, hubwire.LedgerStream)
	if err != nil {
		tb.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	var out []hubwire.LedgerEvent
	for seq := uint64(1); seq <= info.State.LastSeq; seq++ {
		m, err := st.GetMsg(ctx, seq)
		if err != nil {
			tb.Fatal(err)
		}
		var ev hubwire.LedgerEvent
		if err := json.Unmarshal(m.Data, &ev); err != nil {
			tb.Fatalf("the hub's ledger holds %q at %d: %v", m.Data, seq, err)
		}
		out = append(out, ev)
	}
	return out
}
