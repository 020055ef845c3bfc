package natsjs

import "sync"

// tail remembers the newest event a Log appended on a condition: its
// aggregate's subjects and its sequence.
//
// It spares the server a read. The aggregate's check
// (Nats-Expected-Last-Subject-Sequence) makes the server load the
// aggregate's newest message, which is most often the one appended just
// before, in the message block being written. A block read while it is
// written keeps its cache for ten seconds after (nats-server's
// defaultCacheBufferExpiration, not settable for a stream created through
// the API), so a publish of many events held everything it wrote in the
// last ten seconds in memory: 49 MB for 50,000 rules. When an expectation
// names the event this Log appended last for that aggregate, the stream's
// own last sequence (Nats-Expected-Last-Sequence, kept in memory by the
// server) decides the same thing: if that event is still the stream's
// newest, nothing came after it, so it is still the aggregate's newest.
// When something else came after it, the stream's check fails, and the
// aggregate's check decides as before: an event of another aggregate in
// between is no conflict.
//
// Not in a replicated stream: its leader checks an aggregate's
// expectation against what it has stored, and keeps a second one on the
// same subjects out while the first is proposed but not stored, but an
// append checked on the stream's last sequence is no such one: two
// writers, one taking each way, could both be stored on the same
// expectation (seen with two hubs of a cluster accepting one review).
//
// The stream's check is tried only while that event is also the newest
// this Log has seen acknowledged for any append: in the owner, which
// appends every event of the workspace, agents' events land between two
// drafts all the time, and an append that is known to fail the first
// check would cost a tool call two round trips.
type tail struct {
	mu     sync.Mutex
	filter string // the aggregate's subjects
	seq    uint64 // 0: none yet
	newest uint64 // the newest sequence acknowledged to this Log
}

// is tells whether an expectation that the aggregate of subjects filter
// is at last names the remembered event, and nothing this Log appended
// came after it.
func (t *tail) is(filter string, last uint64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seq != 0 && t.seq == last && t.filter == filter && t.newest == t.seq
}

// set remembers the event at seq, appended for the aggregate of subjects
// filter.
func (t *tail) set(filter string, seq uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.filter, t.seq = filter, seq
}

// acked takes note of an append acknowledged at seq.
func (t *tail) acked(seq uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.newest = max(t.newest, seq)
}
