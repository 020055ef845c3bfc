package hub_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/hublink"
)

// A node's join carries its workspace's name: the hub keeps it with the
// node and names the workspace in its stats, for the node's team only; a
// name the hub would not show as it is (a control character, too long)
// is refused with the invite left unused, so the same join with a fixed
// name works.
func TestJoin_WorkspaceName(t *testing.T) {
	th := newTestHub(t)
	ctx := context.Background()
	join := func(ws, team, name string) (hubwire.Node, error) {
		token, err := th.h.Invite(ctx, ws, team, "ann")
		if err != nil {
			t.Fatal(err)
		}
		jt, err := hubwire.ParseJoinToken(token)
		if err != nil {
			t.Fatal(err)
		}
		id, err := hublink.NewIdentity()
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := id.PublicKey()
		n, err := th.h.Join(ctx, jt.Secret, id.NodeID, pub, ws, name)
		if name == "bad\nname" {
			if !errors.Is(err, hub.ErrInvalid) {
				t.Fatalf("a name with a newline: %v, want ErrInvalid", err)
			}
			n, err = th.h.Join(ctx, jt.Secret, id.NodeID, pub, ws, "fixed")
		}
		return n, err
	}
	const red, blue = "ws-00000000000000000000000000000001", "ws-00000000000000000000000000000002"
	long, err := hublink.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	longPub, _ := long.PublicKey()
	if _, err := th.h.Join(ctx, "nosecret", long.NodeID, longPub, red, strings.Repeat("x", 65)); !errors.Is(err, hub.ErrInvalid) {
		t.Fatalf("a name of 65 bytes: %v, want ErrInvalid", err)
	}
	n, err := join(red, "red", "shop-api")
	if err != nil || n.WorkspaceName != "shop-api" {
		t.Fatalf("join: %+v, %v; want the node named shop-api", n, err)
	}
	if n, err := join(blue, "blue", "bad\nname"); err != nil || n.WorkspaceName != "fixed" {
		t.Fatalf("join refused for its name, then again: %+v, %v; want the node named fixed", n, err)
	}
	st, err := th.h.Stats(hub.Query{Teams: []string{"red"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.WorkspaceNames) != 1 || st.WorkspaceNames[red] != "shop-api" {
		t.Fatalf("team red's stats name %v, want %s as shop-api and no other team's", st.WorkspaceNames, red)
	}
	if all, _ := th.h.Stats(hub.Query{}); all.WorkspaceNames[blue] != "fixed" {
		t.Fatalf("every team's stats name %v, want %s as fixed", all.WorkspaceNames, blue)
	}
}
