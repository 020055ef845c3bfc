package hublink_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/internal/hubtest"
)

// TestMirror_OtherTeamRefused checks that a node reads its own team's
// catalog and no other: neither a mirror of another team's bucket nor the
// hub's API for it answers, while its own team's mirror syncs.
func TestMirror_OtherTeamRefused(t *testing.T) {
	th := hubtest.NewHub(t)
	push(t, th, "blue", hubwire.CatalogFile{Source: "rules/go/STYLE.md", Body: rule})
	redRes := push(t, th, "red", hubwire.CatalogFile{Source: "rules/red/ONE.md", Body: rule})
	red := hubtest.Join(t, th, "red")

	js, err := jetstream.New(red.N.Conn)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hubtest.Wait)
	defer cancel()
	// A mirror of the other team's catalog, asked for before the own one.
	blueMirror, err := js.CreateOrUpdateKeyValue(ctx, hublink.MirrorConfig(red.ID.NodeID, "blue"))
	if err != nil {
		t.Fatal(err)
	}
	own := openMirror(t, red, "red")
	waitRev(t, own, redRes.Revision)

	for _, subj := range []string{
		"$JS.hub.API.CONSUMER.CREATE." + hubwire.CatalogStream("blue"),
		"$JS.hub.API.DIRECT.GET." + hubwire.CatalogStream("blue"),
		"$JS.hub.API.STREAM.INFO." + hubwire.CatalogStream("blue"),
		"$JS.hub.API.STREAM.INFO." + hubwire.CatalogStream("red"),
		"$JS.hub.API.DIRECT.GET." + hubwire.CatalogStream("red"),
		"$KV." + hubwire.CatalogBucket("blue") + ".>",
	} {
		msg, err := red.N.Conn.Request(subj, []byte(`{"stream_name":"`+hubwire.CatalogStream("blue")+`","config":{"ack_policy":"none","deliver_subject":"`+hubwire.CatalogDeliverPrefix(red.ID.NodeID)+`.x"}}`), 2*time.Second)
		if err == nil {
			t.Fatalf("%s answered %s, want no answer", subj, msg.Data)
		}
		if !errors.Is(err, nats.ErrNoResponders) && !errors.Is(err, nats.ErrTimeout) {
			t.Fatalf("%s: %v", subj, err)
		}
	}
	// The hub ledger's events about another workspace of the team: the
	// request's filter is not this node's workspace.
	other := hubwire.LedgerSubject("red", "ws-someone-else", ">")
	if msg, err := red.N.Conn.Request("$JS.hub.API.CONSUMER.CREATE."+hubwire.LedgerStream+".x."+other,
		[]byte(`{"stream_name":"`+hubwire.LedgerStream+`","config":{"name":"x","filter_subject":"`+other+`","ack_policy":"none","deliver_subject":"`+hubwire.CatalogDeliverPrefix(red.ID.NodeID)+`.y"}}`), 2*time.Second); err == nil {
		t.Fatalf("a consumer on another workspace's outcomes answered %s, want no answer", msg.Data)
	}
	// Its own workspace's filter in the subject, a wider one in the body:
	// nats-server refuses the mismatch.
	ownWS := hubwire.LedgerSubject("red", red.WS.ID(), ">")
	sub, err := red.N.Conn.SubscribeSync("$JSC.R.widen")
	if err != nil {
		t.Fatal(err)
	}
	if err := red.N.Conn.PublishRequest("$JS.hub.API.CONSUMER.CREATE."+hubwire.LedgerStream+".w."+ownWS, "$JSC.R.widen",
		[]byte(`{"stream_name":"`+hubwire.LedgerStream+`","config":{"name":"w","filter_subject":"hubledger.>","ack_policy":"none","deliver_subject":"`+hubwire.CatalogDeliverPrefix(red.ID.NodeID)+`.w"}}`)); err != nil {
		t.Fatal(err)
	}
	if msg, err := sub.NextMsg(hubtest.Wait); err != nil {
		t.Fatalf("the request for its own workspace's outcomes got no answer: %v", err)
	} else if !strings.Contains(string(msg.Data), "did not match filtered subject") {
		t.Fatalf("a consumer with a wider filter than its subject's was created: %s", msg.Data)
	}
	st, err := blueMirror.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := st.Values(); n != 0 {
		t.Fatalf("the red node's mirror of team blue's catalog holds %d entries, want 0", n)
	}
}
