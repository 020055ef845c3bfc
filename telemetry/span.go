package telemetry

import (
	"encoding/binary"
	"math/rand/v2"
	"time"
)

// span is a call's span, as the batch encodes it.
type span struct {
	traceID   [16]byte
	spanID    [8]byte
	parent    remoteParent // the host's span, when hasParent
	hasParent bool
	name      string
	start     time.Time
	end       time.Time
	attrs     []attr
	failed    string // the error code of a failed call: the status's message
}

// spanOf returns the span of a finished call with attributes a, a child
// of the host's span when the call carried its trace context. sampled is
// false when the host's trace is not sampled (its flags say so): the
// call's span is then not exported, as the host asked, and only counted.
func spanOf(f *finished, a attrs) (s span, sampled bool) {
	s = span{name: spanName(f.rec), start: f.rec.Start, end: f.end, attrs: a.span, failed: a.fail}
	if p, ok := parentOf(f.rec.Meta); ok {
		if p.flags&flagSampled == 0 {
			return s, false
		}
		s.parent, s.hasParent, s.traceID = p, true, p.traceID
	} else {
		s.traceID = newTraceID()
	}
	s.spanID = newSpanID()
	return s, true
}

// newTraceID returns a random trace id, never all zeros (math/rand/v2's
// generator is ChaCha8, seeded from the system).
func newTraceID() (id [16]byte) {
	for id == ([16]byte{}) {
		binary.BigEndian.PutUint64(id[:8], rand.Uint64())
		binary.BigEndian.PutUint64(id[8:], rand.Uint64())
	}
	return id
}

// newSpanID returns a random span id, never all zeros.
func newSpanID() (id [8]byte) {
	for id == ([8]byte{}) {
		binary.BigEndian.PutUint64(id[:], rand.Uint64())
	}
	return id
}
