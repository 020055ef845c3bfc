package hub_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hublink"
)

// TestStatus_AskedByTheNode checks the status a node reads from the hub
// with a signed request: linked and caught up while the hub runs, its
// sequence after more appends, and refused once revoked.
func TestStatus_AskedByTheNode(t *testing.T) {
	th := newTestHub(t)
	tn := joinNode(t, th, "red", "")
	srv := httptest.NewServer(hub.Handler(th.h, "admin-token"))
	defer srv.Close()
	tn.id.Hub = srv.URL
	tn.appendN(t, 10)
	st := waitStatus(t, tn, func(st hublink.Status) bool { return st.Linked && st.HubSeq == 10 })
	if st.Since.IsZero() || !st.Reachable {
		t.Fatalf("status while linked: %+v, want reachable with a since", st)
	}
	tn.appendN(t, 5)
	waitStatus(t, tn, func(st hublink.Status) bool { return st.HubSeq == 15 })

	other := joinNode(t, th, "red", "")
	other.id.Hub = srv.URL
	other.id.NodeID = tn.id.NodeID // signs as tn with its own key
	if st := waitStatus(t, other, func(hublink.Status) bool { return true }); st.Reachable {
		t.Fatalf("a node read another node's status: %+v", st)
	}
	if _, err := th.h.Revoke(context.Background(), tn.id.NodeID); err != nil {
		t.Fatal(err)
	}
	if st := waitStatus(t, tn, func(hublink.Status) bool { return true }); st.Reachable || !st.Revoked {
		t.Fatalf("a revoked node read its status: %+v, want it refused as revoked", st)
	}
}

func waitStatus(t *testing.T, tn *testNode, ok func(hublink.Status) bool) hublink.Status {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		st, err := tn.id.ReadStatus(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("status %+v after %s", st, wait)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
