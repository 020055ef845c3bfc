package hub

import (
	"encoding/base64"
	"log/slog"
	"strings"
	"testing"

	"github.com/nats-io/nkeys"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// chainNode is a node with a real key, its ledger as the hub receives it
// and the chain over it, as its owner computes them.
type chainNode struct {
	hubwire.Node
	kp     nkeys.KeyPair
	seq    uint64
	digest events.ChainDigest
	sent   []natsjs.Message
}

func newChainNode(t *testing.T, id, ws string) *chainNode {
	t.Helper()
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	return &chainNode{Node: hubwire.Node{ID: id, PublicKey: pub, Team: "red", Workspace: ws}, kp: kp, digest: events.ChainStart(ws)}
}

// send appends ev to the node's ledger and returns it as the aggregate
// holds it.
func (cn *chainNode) send(ev events.Event) natsjs.Message {
	cn.seq++
	e := sourced(cn.Node, ev, cn.seq)
	cn.digest = cn.digest.Next(cn.seq, e.Data)
	cn.sent = append(cn.sent, e)
	return e
}

// checkpoint returns a checkpoint of the chain so far, signed with key
// (nil: unsigned) in the name of node signer.
func (cn *chainNode) checkpoint(t *testing.T, digest string, key nkeys.KeyPair, signer string) events.Event {
	t.Helper()
	cp := events.CheckpointData{Seq: cn.seq, Digest: digest}
	if key != nil {
		sig, err := key.Sign(events.CheckpointMessage(cn.Workspace, cp.Seq, cp.Digest))
		if err != nil {
			t.Fatal(err)
		}
		cp.Node, cp.Signature = signer, base64.RawURLEncoding.EncodeToString(sig)
	}
	return event(t, cn.Workspace, events.TypeCheckpoint, "2026-03-01", cp)
}

func chainProjector(t *testing.T, nodes ...*chainNode) *projector {
	t.Helper()
	reg := map[string]hubwire.Node{}
	for _, n := range nodes {
		reg[n.ID] = n.Node
	}
	p, err := openProjector(t.TempDir(), func(id string) (hubwire.Node, bool) { n, ok := reg[id]; return n, ok }, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.close() })
	return p
}

func nodeChainOf(t *testing.T, p *projector, n *chainNode, at uint64) hubwire.NodeChain {
	t.Helper()
	c, err := p.nodeChain(n.Node, at)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestChain_HonestNodeHoldsAndDigestsMatch(t *testing.T) {
	a := newChainNode(t, "n-aaaaaaaaaaaaaaaa", "ws-a")
	p := chainProjector(t, a)
	// Before the node joined: an unsigned checkpoint is accepted.
	a.send(refer(t, a.Workspace, "2026-03-01", [2]string{"r1", ""}))
	a.send(a.checkpoint(t, a.digest.String(), nil, ""))
	a.send(refer(t, a.Workspace, "2026-03-01", [2]string{"r2", ""}))
	mid := a.digest.String()
	a.send(refer(t, a.Workspace, "2026-03-01", [2]string{"r3", ""}))
	a.send(a.checkpoint(t, a.digest.String(), a.kp, a.ID))
	// Delivered in two batches, the second with a redelivery.
	applyAll(t, p, a.sent[:2]...)
	applyAll(t, p, append([]natsjs.Message{a.sent[1]}, a.sent[2:]...)...)

	c := nodeChainOf(t, p, a, 3)
	if c.Problem != nil {
		t.Fatalf("an honest node's chain has a problem: %+v", c.Problem)
	}
	if c.Through != 5 || c.Digest != a.digest.String() || c.Checkpoints != 2 || c.Signed != 1 || c.Verified != 4 {
		t.Fatalf("chain = %+v, want through 5, digest %s, 2 checkpoints, 1 signed, verified through 4", c, a.digest)
	}
	if c.At == nil || c.At.Seq != 3 || c.At.Digest != mid {
		t.Fatalf("digest at seq 3 = %+v, want %s", c.At, mid)
	}
	if _, err := p.nodeChain(a.Node, 6); err == nil {
		t.Fatal("the digest of a sequence the hub never received was given")
	}
}

func TestChain_RefusesWhatDoesNotHold(t *testing.T) {
	cases := []struct {
		name string
		last func(t *testing.T, a *chainNode, other *chainNode) events.Event
		want string
	}{
		{"digest of a rewritten history", func(t *testing.T, a, _ *chainNode) events.Event {
			rewritten := events.ChainStart(a.Workspace).Next(1, []byte("something else"))
			return a.checkpoint(t, rewritten.String(), a.kp, a.ID)
		}, "hash to"},
		{"signed with another key", func(t *testing.T, a, other *chainNode) events.Event {
			return a.checkpoint(t, a.digest.String(), other.kp, a.ID)
		}, "not node " + "n-aaaaaaaaaaaaaaaa"},
		{"signed by a node of another workspace", func(t *testing.T, a, other *chainNode) events.Event {
			return a.checkpoint(t, a.digest.String(), other.kp, other.ID)
		}, "not a node of workspace"},
		{"unsigned after a signed one", func(t *testing.T, a, _ *chainNode) events.Event {
			return a.checkpoint(t, a.digest.String(), nil, "")
		}, "no signature"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newChainNode(t, "n-aaaaaaaaaaaaaaaa", "ws-a")
			other := newChainNode(t, "n-bbbbbbbbbbbbbbbb", "ws-b")
			p := chainProjector(t, a, other)
			a.send(refer(t, a.Workspace, "2026-03-01", [2]string{"r1", ""}))
			a.send(a.checkpoint(t, a.digest.String(), a.kp, a.ID))
			a.send(refer(t, a.Workspace, "2026-03-01", [2]string{"r2", ""}))
			a.send(tc.last(t, a, other))
			applyAll(t, p, a.sent...)
			c := nodeChainOf(t, p, a, 0)
			if c.Problem == nil || c.Problem.Seq != 4 || !strings.Contains(c.Problem.Reason, tc.want) {
				t.Fatalf("problem = %+v, want one at seq 4 saying %q", c.Problem, tc.want)
			}
			if c.Verified != 1 || c.Signed != 1 {
				t.Fatalf("verified through %d with %d signed, want 1 and 1", c.Verified, c.Signed)
			}
		})
	}
}

func TestChain_GapIsNamed(t *testing.T) {
	a := newChainNode(t, "n-aaaaaaaaaaaaaaaa", "ws-a")
	p := chainProjector(t, a)
	for range 4 {
		a.send(refer(t, a.Workspace, "2026-03-01", [2]string{"r1", ""}))
	}
	applyAll(t, p, a.sent[0], a.sent[3])
	c := nodeChainOf(t, p, a, 0)
	if c.Problem == nil || c.Problem.Seq != 2 || c.Through != 4 {
		t.Fatalf("chain = %+v, want a problem at seq 2 (seq 2..3 never received)", c)
	}
}
