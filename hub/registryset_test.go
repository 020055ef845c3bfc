package hub

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestRegistryData_SetKeepsOrder applies node, invite and member-token
// entries in a random order, some of them written again with a new value,
// and checks that the copy's lists stay ordered by id with one entry per
// id holding the last value: set inserts in place instead of sorting the
// whole registry at each change, and must hold what a sort would.
func TestRegistryData_SetKeepsOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var d registryData
	lastNode := map[string]int{}
	lastInvite := map[string]string{}
	for i := range 600 {
		k := rng.IntN(150)
		switch rng.IntN(3) {
		case 0:
			id := fmt.Sprintf("n-%016x", k)
			b, _ := json.Marshal(hubwire.Node{ID: id, Team: "red", Shard: i})
			if err := d.set(keyNodePrefix+id, b); err != nil {
				t.Fatal(err)
			}
			lastNode[id] = i
		case 1:
			hash := fmt.Sprintf("h%03d", k)
			b, _ := json.Marshal(invite{Hash: hash, Team: fmt.Sprint(i)})
			if err := d.set(keyInvitePrefix+hash, b); err != nil {
				t.Fatal(err)
			}
			lastInvite[hash] = fmt.Sprint(i)
		default:
			hash := fmt.Sprintf("t%03d", k)
			b, _ := json.Marshal(memberToken{Hash: hash})
			if err := d.set(keyTokenPrefix+hash, b); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !slices.IsSortedFunc(d.Nodes, func(a, b hubwire.Node) int { return strings.Compare(a.ID, b.ID) }) ||
		!slices.IsSortedFunc(d.Invites, func(a, b invite) int { return strings.Compare(a.Hash, b.Hash) }) ||
		!slices.IsSortedFunc(d.Tokens, func(a, b memberToken) int { return strings.Compare(a.Hash, b.Hash) }) {
		t.Fatal("a list of the registry's copy is out of order")
	}
	if len(d.Nodes) != len(lastNode) || len(d.Invites) != len(lastInvite) {
		t.Fatalf("%d nodes and %d invites kept, want %d and %d", len(d.Nodes), len(d.Invites), len(lastNode), len(lastInvite))
	}
	for _, n := range d.Nodes {
		if n.Shard != lastNode[n.ID] {
			t.Fatalf("node %s holds the value of write %d, want %d", n.ID, n.Shard, lastNode[n.ID])
		}
	}
	for _, in := range d.Invites {
		if in.Team != lastInvite[in.Hash] {
			t.Fatalf("invite %s holds the value of write %s, want %s", in.Hash, in.Team, lastInvite[in.Hash])
		}
	}
}
