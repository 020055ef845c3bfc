package hub_test

import "testing"

// TestAccounts_HubImportsStayFew joins nodes one by one and checks that
// the hub's account holds as many service imports and as many exports
// after the twelfth as after the first, and again after a restart: every
// node's API and flow control reach the hub's account through the links
// account, and the hub exports each node's own services and deliveries
// under one subject for every node, so adding a node's account
// (nats-server checks each import against every import and export of the
// account it comes from) costs the same whatever the registry holds.
// The nodes' events still reach the aggregate, exactly once (the
// mirrors through the same accounts are hublink's tests).
func TestAccounts_HubImportsStayFew(t *testing.T) {
	th := newTestHub(t)
	var nodes []*stormNode
	imports := func() int { return th.h.HubServiceImports() }
	first, exports := -1, -1
	for i := range 12 {
		sn := inviteNode(t, th, "red")
		joinAll(t, th, []*stormNode{sn})
		nodes = append(nodes, sn)
		if i == 0 {
			first, exports = imports(), th.h.HubExports()
		}
	}
	if got := imports(); got != first {
		t.Fatalf("the hub's account holds %d service imports after 12 joins, %d after the first", got, first)
	}
	if got := th.h.HubExports(); got != exports {
		t.Fatalf("the hub's account holds %d exports after 12 joins, %d after the first", got, exports)
	}
	want := map[string]bool{}
	for _, sn := range nodes {
		sn.tn.open(t)
		t.Cleanup(sn.tn.close)
		addAll(want, sn.tn.appendN(t, 3))
	}
	checkExactly(t, th, want)

	th.stop()
	th.start(t)
	if got := imports(); got != first {
		t.Fatalf("the hub's account holds %d service imports after a restart with 12 nodes, %d with one", got, first)
	}
	for _, sn := range nodes {
		addAll(want, sn.tn.appendN(t, 1))
	}
	checkExactly(t, th, want)
}

// TestAccounts_LinksAccountBeforeAnyNode starts a hub with no node: its
// server knows the links account all the same. A peer names the account
// in its interest (the responses of a node's API that pass through it)
// as soon as the route is up, and a server that does not know it then
// drops that interest for good: a hub restarted from a local copy that
// missed a node lost every answer of that node's API through it.
func TestAccounts_LinksAccountBeforeAnyNode(t *testing.T) {
	th := newTestHub(t)
	if !th.h.HasLinksAccount() {
		t.Fatal("a hub with no node started without the links account")
	}
}
