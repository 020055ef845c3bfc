package events_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/clumsies/clumsies/events"
)

func TestChainDigest_Next(t *testing.T) {
	start := events.ChainStart("ws-abc")
	if start != sha256.Sum256([]byte("clumsies ledger chain v1\x00ws-abc")) {
		t.Fatalf("ChainStart: got %s", start)
	}
	if start == events.ChainStart("ws-abd") {
		t.Fatal("two workspaces start their chains at the same digest")
	}
	msg := []byte(`{"v":1,"id":"01J"}`)
	// The step, written out by hand.
	var b bytes.Buffer
	b.Write(start[:])
	b.Write(binary.BigEndian.AppendUint64(nil, 7))
	b.Write(binary.BigEndian.AppendUint64(nil, uint64(len(msg))))
	b.Write(msg)
	want := events.ChainDigest(sha256.Sum256(b.Bytes()))
	got := start.Next(7, msg)
	if got != want {
		t.Fatalf("Next: got %s, want %s", got, want)
	}
	flipped := bytes.Clone(msg)
	flipped[3] ^= 1
	for name, other := range map[string]events.ChainDigest{
		"another sequence": start.Next(8, msg),
		"a flipped byte":   start.Next(7, flipped),
		"a shorter record": start.Next(7, msg[:len(msg)-1]),
		"another start":    events.ChainStart("ws-x").Next(7, msg),
	} {
		if other == got {
			t.Errorf("%s gives the same digest", name)
		}
	}
}

func TestChainDigest_Parse(t *testing.T) {
	d := events.ChainStart("ws-abc").Next(1, []byte("x"))
	back, err := events.ParseChainDigest(d.String())
	if err != nil || back != d {
		t.Fatalf("parse %s: got %s, %v", d, back, err)
	}
	for _, bad := range []string{"", "sha256:", d.String()[7:], "sha256:" + d.String()[8:], "md5:" + d.String()[7:], d.String()[:70] + "zz"} {
		if _, err := events.ParseChainDigest(bad); !errors.Is(err, events.ErrMalformed) {
			t.Errorf("parse %q: got %v, want ErrMalformed", bad, err)
		}
	}
}
