package hub

import (
	"errors"
	"fmt"
	"maps"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
)

// TestOrigin_FromTheShardCopy: a message the aggregate sourced from a
// shard is read by its copy there. The node's ledger sequence comes from
// the copy's header; a message whose header names a shard that is not
// its node's, or whose copy has another subject, is refused as forged.
// A copy the shard no longer holds, or another message at its sequence
// (a shard made again), leaves the sequence unknown (0) and the message
// counted.
func TestOrigin_FromTheShardCopy(t *testing.T) {
	p := testProjector(t)
	a := nodeA
	a.Shard = 2
	ev := event(t, a.Workspace, events.TypeRefer, "2026-11-29", events.ReferData{})
	direct := sourced(a, ev, 7) // as the shard holds it
	inAggregate := func(shard int, seq uint64) (m natsjs.Message) {
		m = direct
		m.Header = maps.Clone(direct.Header)
		m.Header.Set(streamSourceHeader, fmt.Sprintf("AGGREGATE_S%d %d > > %s", shard, seq, direct.Subject))
		return m
	}
	cp := shardCopy{subject: direct.Subject, msgID: ev.ID, header: direct.Header.Get(streamSourceHeader)}
	other := cp
	other.msgID = "ev-another"
	// Shard 1 holds the same copy: only the node's shard is believed.
	p.copies = map[shardRef]shardCopy{{shard: 2, seq: 40}: cp, {shard: 1, seq: 40}: cp, {shard: 2, seq: 42}: other}

	if seq, err := p.origin(inAggregate(2, 40), a, string(ev.Type)); err != nil || seq != 7 {
		t.Fatalf("the node's sequence through its shard: %d, %v; want 7", seq, err)
	}
	for name, m := range map[string]natsjs.Message{
		"another shard":   inAggregate(1, 40),
		"another subject": func() natsjs.Message { m := inAggregate(2, 40); m.Subject += "x"; return m }(),
	} {
		if _, err := p.origin(m, a, string(ev.Type)); !errors.Is(err, errForged) {
			t.Errorf("%s: %v, want errForged", name, err)
		}
	}
	for name, m := range map[string]natsjs.Message{
		"no copy":                     inAggregate(2, 41),
		"another message at that seq": inAggregate(2, 42),
	} {
		if seq, err := p.origin(m, a, string(ev.Type)); err != nil || seq != 0 {
			t.Errorf("%s: %d, %v; want the message counted without its sequence (0)", name, seq, err)
		}
	}
	if p.lostCopies != 2 {
		t.Errorf("%d lost copies counted, want 2", p.lostCopies)
	}
	unmoved := a
	unmoved.Shard = 0
	if _, err := p.origin(inAggregate(2, 40), unmoved, string(ev.Type)); !errors.Is(err, errNodeNotYetKnown) {
		t.Errorf("a node whose shard this hub's registry does not know yet: %v, want errNodeNotYetKnown", err)
	}
}
