package hub_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestCluster_JoinWhileAHubsCopyLags holds the registry watch of a hub
// that does not write the sources, as the watch of a hub whose consumer
// went with a stopped server stays silent, and joins a node at the third
// hub: the join answers with the node's account set up at the lagging
// hub too, which read the node from the registry's leader when it was
// asked about it. The lagging hub then leads the node's shard, the node
// links at the hub it joined and appends, the watch goes on, and every
// hub counts the node's events. Before, the lagging hub confirmed nothing
// until its watch delivered the node: the join answered after the 10-s
// wait without it, and the node's link made interest in an account that
// hub did not know, which it dropped for good (nats-server#8560): as the
// shard's leader it never reached the node, and no hub counted its
// events, however long.
func TestCluster_JoinWhileAHubsCopyLags(t *testing.T) {
	hubs := newTestCluster(t)
	w := writerOf(t, hubs)
	lag, at := hubs[(w+1)%3], hubs[(w+2)%3]
	release := lag.h.HoldRegistryWatch()
	t.Cleanup(release) // before the hubs stop, which waits for the watch
	sn := inviteNode(t, at, "red")
	joinSoon(t, at, sn)
	id := sn.tn.id.NodeID
	if !lag.h.AccountReady(id) {
		t.Fatalf("%s, whose copy of the registry lags, has not set up the account of %s when its join at %s answered", lag.cfg.Name, id, at.cfg.Name)
	}
	leadShard(t, hubs, 1, lag)
	sn.tn.url = "nats-leaf://" + at.cfg.Leaf
	sn.tn.open(t)
	t.Cleanup(sn.tn.close)
	want := map[string]bool{}
	addAll(want, sn.tn.appendN(t, 5))
	release()
	for k, th := range hubs {
		waitStats(t, fmt.Sprintf("hub %d", k+1), th, len(want), wait)
	}
}

// leadShard hands the lead of shard k to the hub to, unless it leads it
// already, and waits until every hub names it.
func leadShard(t *testing.T, hubs []*testHub, k int, to *testHub) {
	t.Helper()
	leader := shardLeaderEverywhere(t, hubs, k, "", 3)
	if leader == to.cfg.Name {
		return
	}
	nc, err := to.h.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	req, _ := json.Marshal(map[string]any{"placement": map[string]string{"preferred": to.cfg.Name}})
	msg, err := nc.Request("$JS.API.STREAM.LEADER.STEPDOWN."+hubwire.ShardStream(k), req, wait)
	if err != nil {
		t.Fatalf("hand %s's lead to %s: %v", hubwire.ShardStream(k), to.cfg.Name, err)
	}
	var resp struct {
		Success bool `json:"success"`
	}
	if err := json.Unmarshal(msg.Data, &resp); err != nil || !resp.Success {
		t.Fatalf("hand %s's lead to %s: %s", hubwire.ShardStream(k), to.cfg.Name, msg.Data)
	}
	if got := shardLeaderEverywhere(t, hubs, k, leader, 3); got != to.cfg.Name {
		t.Fatalf("%s is led by %s after its lead was handed to %s", hubwire.ShardStream(k), got, to.cfg.Name)
	}
}
