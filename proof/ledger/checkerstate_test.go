package ledger_test

import (
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
	"github.com/clumsies/clumsies/proof/ledger"
)

// digests is a History kept in a map, as a store keeps it in rows.
type digests map[uint64]events.ChainDigest

func (d digests) DigestAt(seq uint64) (events.ChainDigest, bool, error) {
	v, ok := d[seq]
	return v, ok, nil
}

// chained returns n events at sequences 1..n, with a checkpoint at
// checkpointAt that covers seq covers (signed with key unless nil).
func chained(t *testing.T, n int, checkpointAt, covers uint64, key ed25519.PrivateKey) []events.Event {
	t.Helper()
	var evs []events.Event
	chain := events.ChainStart(ws)
	at := map[uint64]events.ChainDigest{0: chain}
	for i := range n {
		seq := uint64(i + 1)
		ev := eventstest.Event(t, i)
		if seq == checkpointAt {
			cp := events.CheckpointData{Seq: covers, Digest: at[covers].String()}
			if key != nil {
				sign(key, "n-self")(&cp)
			}
			var err error
			if ev, err = events.New(ws, events.TypeCheckpoint, cp); err != nil {
				t.Fatal(err)
			}
		}
		raw, err := events.Encode(ev)
		if err != nil {
			t.Fatal(err)
		}
		ev.Seq, ev.Raw = seq, raw
		chain = chain.Next(seq, raw)
		at[seq] = chain
		evs = append(evs, ev)
	}
	return evs
}

// TestChecker_Restore checks that a Checker stored as its State after
// each message and restored with a History of the digests gives what one
// Checker over the whole ledger gives, a checkpoint that covers a
// sequence added before the restore included.
func TestChecker_Restore(t *testing.T) {
	pub, key, _ := ed25519.GenerateKey(nil)
	verify := func(node string, msg, sig []byte) (bool, error) {
		return true, map[bool]error{true: nil, false: ledger.ErrBroken}[ed25519.Verify(pub, msg, sig)]
	}
	for _, tc := range []struct {
		name    string
		evs     []events.Event
		problem string
	}{
		{"holds", chained(t, 8, 7, 3, key), ""},
		{"changed before the checkpoint", func() []events.Event {
			evs := chained(t, 8, 7, 3, key)
			evs[1].Raw = append([]byte(nil), evs[1].Raw...)
			evs[1].Raw[len(evs[1].Raw)-2] ^= 1
			return evs
		}(), "hash to"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole := ledger.NewChecker(ws)
			whole.Verify(verify)
			for _, ev := range tc.evs {
				whole.Add(ev)
			}
			h := digests{}
			var state ledger.CheckerState
			for _, ev := range tc.evs {
				c, err := ledger.RestoreChecker(ws, state, h)
				if err != nil {
					t.Fatal(err)
				}
				c.Verify(verify)
				c.Add(ev)
				h[ev.Seq] = c.Digest()
				b, err := json.Marshal(c.State())
				if err != nil {
					t.Fatal(err)
				}
				state = ledger.CheckerState{}
				if err := json.Unmarshal(b, &state); err != nil {
					t.Fatal(err)
				}
			}
			want := whole.State()
			gotJSON, _ := json.Marshal(state)
			wantJSON, _ := json.Marshal(want)
			if string(gotJSON) != string(wantJSON) {
				t.Fatalf("restored each message: %s\nwant (one checker): %s", gotJSON, wantJSON)
			}
			switch p := state.Problem; {
			case tc.problem == "" && (p != nil || state.Verified != 3 || state.Signed != 1):
				t.Fatalf("state %s, want no problem, verified through 3, 1 signed", gotJSON)
			case tc.problem != "" && (p == nil || p.Seq != 7 || !strings.Contains(p.Reason, tc.problem)):
				t.Fatalf("problem %v, want one at seq 7 saying %q", p, tc.problem)
			}
		})
	}
}

// TestChecker_KeepSigned checks that a Checker told to keep signed
// refuses an unsigned checkpoint after a signed one, and that one not
// told accepts it.
func TestChecker_KeepSigned(t *testing.T) {
	_, key, _ := ed25519.GenerateKey(nil)
	signed := chained(t, 5, 4, 3, key)
	unsigned := chained(t, 8, 7, 6, nil)
	evs := append(signed[:5:5], unsigned[5:]...)
	// The unsigned tail was chained after other events: re-chain it.
	chain := events.ChainStart(ws)
	for i := range evs {
		if i == 6 {
			cp := events.CheckpointData{Seq: 6, Digest: chain.String()}
			ev, err := events.New(ws, events.TypeCheckpoint, cp)
			if err != nil {
				t.Fatal(err)
			}
			evs[i] = ev
		}
		raw, err := events.Encode(evs[i])
		if err != nil {
			t.Fatal(err)
		}
		evs[i].Seq, evs[i].Raw = uint64(i+1), raw
		chain = chain.Next(evs[i].Seq, raw)
	}
	for _, keep := range []bool{false, true} {
		c := ledger.NewChecker(ws)
		c.Verify(func(string, []byte, []byte) (bool, error) { return true, nil })
		if keep {
			c.KeepSigned()
		}
		for _, ev := range evs {
			c.Add(ev)
		}
		p := c.Finish()
		switch {
		case !keep && p != nil:
			t.Fatalf("without KeepSigned: problem %v, want none", p)
		case keep && (p == nil || p.Seq != 7 || !strings.Contains(p.Reason, "no signature")):
			t.Fatalf("with KeepSigned: problem %v, want one at seq 7 saying %q", p, "no signature")
		}
	}
}
