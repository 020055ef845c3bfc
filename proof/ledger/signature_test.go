package ledger_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
	"github.com/clumsies/clumsies/proof/ledger"
)

// signedLedger returns three events and a checkpoint of them whose
// payload edit sets, stored at sequences 1..4.
func signedLedger(t *testing.T, edit func(cp *events.CheckpointData)) []events.Event {
	t.Helper()
	var evs []events.Event
	chain := events.ChainStart(ws)
	add := func(ev events.Event) {
		raw, err := events.Encode(ev)
		if err != nil {
			t.Fatal(err)
		}
		ev.Seq, ev.Raw = uint64(len(evs)+1), raw
		chain = chain.Next(ev.Seq, raw)
		evs = append(evs, ev)
	}
	for i := range 3 {
		add(eventstest.Event(t, i))
	}
	cp := events.CheckpointData{Seq: 3, Digest: chain.String()}
	edit(&cp)
	ev, err := events.New(ws, events.TypeCheckpoint, cp)
	if err != nil {
		t.Fatal(err)
	}
	add(ev)
	return evs
}

func sign(key ed25519.PrivateKey, node string) func(cp *events.CheckpointData) {
	return func(cp *events.CheckpointData) {
		cp.Node = node
		cp.Signature = base64.RawURLEncoding.EncodeToString(ed25519.Sign(key, events.CheckpointMessage(ws, cp.Seq, cp.Digest)))
	}
}

// TestChecker_Signatures checks that the signature of a checkpoint made
// by the key the Checker holds is verified, that one it cannot check is
// counted as such, and that a forged or malformed one is a problem at the
// checkpoint's sequence.
func TestChecker_Signatures(t *testing.T) {
	pub, key, _ := ed25519.GenerateKey(nil)
	_, other, _ := ed25519.GenerateKey(nil)
	verify := func(node string, msg, sig []byte) (bool, error) {
		if node != "n-self" {
			return false, nil
		}
		if !ed25519.Verify(pub, msg, sig) {
			return true, errors.New("bad signature")
		}
		return true, nil
	}
	cases := []struct {
		name              string
		edit              func(cp *events.CheckpointData)
		signed, unchecked int
		problem           string
	}{
		{"unsigned", func(*events.CheckpointData) {}, 0, 0, ""},
		{"signed by this node", sign(key, "n-self"), 1, 0, ""},
		{"signed by another node", sign(other, "n-other"), 0, 1, ""},
		{"forged in this node's name", sign(other, "n-self"), 0, 0, "not signed by node n-self"},
		{"signature without a node", func(cp *events.CheckpointData) { sign(key, "n-self")(cp); cp.Node = "" }, 0, 0, "malformed signature"},
		{"signature not base64url", func(cp *events.CheckpointData) { cp.Node, cp.Signature = "n-self", "%%%" }, 0, 0, "malformed signature"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := ledger.NewChecker(ws)
			c.Verify(verify)
			for _, ev := range signedLedger(t, tc.edit) {
				c.Add(ev)
			}
			p := c.Finish()
			switch {
			case tc.problem == "" && p != nil:
				t.Fatalf("problem %v, want none", p)
			case tc.problem != "" && (p == nil || p.Seq != 4 || !strings.Contains(p.Reason, tc.problem)):
				t.Fatalf("problem %v, want one at seq 4 saying %q", p, tc.problem)
			case c.Signed() != tc.signed || c.Unchecked() != tc.unchecked:
				t.Fatalf("signed %d, unchecked %d; want %d and %d", c.Signed(), c.Unchecked(), tc.signed, tc.unchecked)
			}
		})
	}
}
