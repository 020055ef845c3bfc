package hub_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestLedger_OlderHubsLedgerLoads makes a hub's ledger and catalog as a
// hub before the ledger was an events.Log wrote them: the stream without
// the schema's mark, a catalog entry written before its event, events in
// the old envelope (no version, no outcome). The hub started on them
// opens the ledger, serves the catalog as it was (the old event is not
// applied again), reads every old event, and records a new push after
// them.
func TestLedger_OlderHubsLedgerLoads(t *testing.T) {
	th := newTestHub(t)
	nc, err := th.h.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := js.DeleteStream(ctx, hubwire.LedgerStream); err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: hubwire.LedgerStream, Subjects: []string{hubwire.LedgerPrefix + ".>"},
		Storage: jetstream.FileStorage, Duplicates: 24 * time.Hour, DenyDelete: true, DenyPurge: true}); err != nil {
		t.Fatal(err)
	}
	kv, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: hubwire.CatalogBucket("blue"), History: 64})
	if err != nil {
		t.Fatal(err)
	}
	obj := hubwire.CatalogObject{ID: "p-00000000000000000000000000000001", Kind: content.KindRule, Path: "go/STYLE.md",
		Name: "STYLE", Group: "go", Hash: content.Hash([]byte(styleRule)), Body: styleRule}
	b, _ := json.Marshal(obj)
	if _, err := kv.Create(ctx, obj.ID, b); err != nil {
		t.Fatal(err)
	}
	old := func(id string, typ events.Type, ws string, data any) {
		raw, _ := json.Marshal(data)
		b, _ := json.Marshal(hubwire.LedgerEvent{ID: id, Type: typ, Time: events.FormatTime(time.Now()), Team: "blue", WorkspaceID: ws, Data: raw})
		msg := &nats.Msg{Subject: hubwire.LedgerSubject("blue", ws, string(typ)), Data: b, Header: nats.Header{}}
		msg.Header.Set(nats.MsgIdHdr, id)
		if _, err := js.PublishMsg(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	old("catalog-blue-1", events.TypeHubCatalogPublish, "", events.HubCatalogData{ID: obj.ID, Kind: "rule", Path: obj.Path, Hash: obj.Hash, Revision: 1, By: "push"})
	old(events.NewID(), events.TypeReviewDecline, "ws-old", events.ReviewOutcomeData{ReviewID: "01OLDREVIEW", DraftID: obj.ID, Node: "n-old", SubmitSeq: 3, Reviewer: "ann", Reason: "no"})

	th.stop()
	th.start(t)
	m, err := th.h.TeamManifest(ctx, "blue")
	if err != nil {
		t.Fatal(err)
	}
	if m.Revision != 1 || len(m.Objects) != 1 || m.Objects[0].ID != obj.ID {
		t.Fatalf("the upgraded hub's catalog: %+v, want %s alone at revision 1", m, obj.ID)
	}
	var got []events.Event
	if err := th.h.Ledger().Replay(ctx, 1, func(ev events.Event) error { got = append(got, ev); return nil }); err != nil {
		t.Fatalf("replay the older hub's ledger: %v", err)
	}
	if len(got) != 2 || got[0].Team != "blue" || got[0].Type != events.TypeHubCatalogPublish || got[1].WorkspaceID != "ws-old" {
		t.Fatalf("the older hub's ledger reads as %+v, want its two events", got)
	}

	res := pushFiles(t, th, "blue", hubwire.CatalogFile{Source: "rules/go/STYLE.md", Body: styleRule + "- and log them\n"})
	if len(res.Published) != 1 || res.Published[0].ID != obj.ID || res.Revision != 2 {
		t.Fatalf("a push on the older hub's catalog: %+v, want %s at revision 2", res, obj.ID)
	}
	if last, _ := th.h.Ledger().LastSeq(ctx); last != 3 {
		t.Fatalf("the ledger holds %d events after the push, want 3", last)
	}
}
