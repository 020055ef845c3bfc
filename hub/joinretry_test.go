package hub_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/workspace"
)

// TestJoin_AsksAgain joins through an API that first refuses the
// connection, then drops it unanswered, then registers the node but drops
// the answer, then answers: the join waits and asks again each time, and
// the clone ends up joined as the one node the hub registered.
func TestJoin_AsksAgain(t *testing.T) {
	th := newTestHub(t)
	ws, _, err := workspace.Init(filepath.Join(t.TempDir(), "repo"))
	if err != nil {
		t.Fatal(err)
	}
	invite, err := th.h.Invite(context.Background(), ws.ID(), "red", "ann")
	if err != nil {
		t.Fatal(err)
	}
	jt, err := hubwire.ParseJoinToken(invite)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // refused until the first retry

	token, _ := th.cfg.AdminToken()
	api := hub.Handler(th.h, token)
	var mu sync.Mutex
	calls := 0
	flaky := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		call := calls
		mu.Unlock()
		switch call {
		case 1: // dropped before the hub saw it
		case 2: // the hub registers the node; its answer is lost
			api.ServeHTTP(httptest.NewRecorder(), r)
		default:
			api.ServeHTTP(w, r)
			return
		}
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	var waits []string
	serving := false
	waiting := func(err error, wait time.Duration) {
		waits = append(waits, err.Error())
		if !serving {
			serving = true
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				t.Errorf("listen again on %s: %v", addr, err)
				return
			}
			srv := &http.Server{Handler: flaky}
			go srv.Serve(ln)
			t.Cleanup(func() { srv.Close() })
		}
	}
	withAPI := hubwire.JoinToken{HTTP: "http://" + addr, Leaf: jt.Leaf, Secret: jt.Secret}.Encode()
	id, n, err := hublink.Join(context.Background(), ws, withAPI, waiting)
	if err != nil {
		t.Fatalf("join: %v (after waiting %d times: %q)", err, len(waits), waits)
	}
	if len(waits) != 3 {
		t.Fatalf("waited %d times (%q), want 3: refused, dropped, answer lost", len(waits), waits)
	}
	if n.ID != id.NodeID {
		t.Fatalf("joined as %s, the hub answered node %s", id.NodeID, n.ID)
	}
	nodes := th.h.Nodes()
	if len(nodes) != 1 || nodes[0].ID != id.NodeID {
		t.Fatalf("the hub holds %v, want the one node %s", nodes, id.NodeID)
	}
	if saved, err := hublink.LoadIdentity(ws.StateDir()); err != nil || saved.NodeID != id.NodeID {
		t.Fatalf("saved identity %v (%v), want node %s", saved.NodeID, err, id.NodeID)
	}
}
