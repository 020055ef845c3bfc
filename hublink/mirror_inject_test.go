package hublink_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/internal/hubtest"
)

// TestMirror_DeliverSubjectContained checks that a node, which may create
// consumers on its team's catalog, cannot have the hub deliver into the
// hub's own streams: a push consumer delivers only to subscribers, and a
// node can subscribe to nothing of the hub's account but its own
// deliveries. A consumer pointed at the registry bucket and at the hub
// ledger is created, and delivers nothing into either.
func TestMirror_DeliverSubjectContained(t *testing.T) {
	th := hubtest.NewHub(t)
	res := push(t, th, "blue", hubwire.CatalogFile{Source: "rules/go/STYLE.md", Body: rule})
	n := hubtest.Join(t, th, "blue")
	m := openMirror(t, n, "blue")
	waitRev(t, m, res.Revision) // the link and the node's grants are up

	sub, err := n.N.Conn.SubscribeSync("$JSC.R.inject")
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"$KV." + hubwire.RegistryBucket + ".evil", hubwire.LedgerSubject("blue", "", "catalog.publish")} {
		if err := n.N.Conn.PublishRequest("$JS.hub.API.CONSUMER.CREATE."+hubwire.CatalogStream("blue"), "$JSC.R.inject",
			[]byte(`{"stream_name":"`+hubwire.CatalogStream("blue")+`","config":{"ack_policy":"none","deliver_subject":"`+target+`"}}`)); err != nil {
			t.Fatal(err)
		}
		if _, err := sub.NextMsg(hubtest.Wait); err != nil {
			t.Fatalf("the consumer request for %s got no answer: %v", target, err)
		}
	}

	nc, err := th.H.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx := context.Background()
	cs, err := js.Stream(ctx, hubwire.CatalogStream("blue"))
	if err != nil {
		t.Fatal(err)
	}
	// Give the consumers time to deliver, were they to.
	time.Sleep(time.Second)
	found := 0
	for c := range cs.ListConsumers(ctx).Info() {
		if c.Config.DeliverSubject == "$KV."+hubwire.RegistryBucket+".evil" || c.Config.DeliverSubject == hubwire.LedgerSubject("blue", "", "catalog.publish") {
			found++
			if c.Delivered.Stream != 0 {
				t.Fatalf("consumer to %s delivered %d messages, want 0", c.Config.DeliverSubject, c.Delivered.Stream)
			}
		}
	}
	if found != 2 {
		t.Fatalf("found %d of the node's two consumers, want 2 (the test would prove nothing)", found)
	}
	kv, err := js.KeyValue(ctx, hubwire.RegistryBucket)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Get(ctx, "evil"); !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Fatalf("the registry holds a key the node delivered into: %v", err)
	}
	if got := ledgerMsgs(t, js); got != 1 {
		t.Fatalf("the hub ledger holds %d events, want the push's 1", got)
	}
}

func ledgerMsgs(t *testing.T, js jetstream.JetStream) uint64 {
	t.Helper()
	st, err := js.Stream(context.Background(), hubwire.LedgerStream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Msgs
}
