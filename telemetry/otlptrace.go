package telemetry

import (
	"encoding/binary"

	"google.golang.org/protobuf/encoding/protowire"
)

// spanBatch holds the spans waiting for the next export, already written
// as OTLP Span messages (trace/v1), behind room for the request's head:
// a request is the buffer itself, with no copy and no span kept as an
// object.
type spanBatch struct {
	resource []byte // the ResourceSpans' resource field, encoded once
	scope    []byte // the ScopeSpans' scope field, encoded once
	room     int    // bytes kept in front of the spans for the head
	buf      []byte // room bytes, then each span as field 2 of ScopeSpans
	n        int    // spans in buf
}

// newSpanBatch returns an empty batch of spans of resource.
func newSpanBatch(resource []attr) *spanBatch {
	sb := &spanBatch{resource: appendResource(nil, 1, resource), scope: appendScope(nil, 1)}
	sb.room = len(sb.resource) + len(sb.scope) + 2*(1+binary.MaxVarintLen64)
	sb.buf = make([]byte, sb.room)
	return sb
}

// add writes s into the batch.
func (sb *spanBatch) add(s span) {
	sb.buf = message(sb.buf, 2, func(b []byte) []byte { return appendSpan(b, s) })
	sb.n++
}

// request returns the ExportTraceServiceRequest of the spans added since
// the last request: one ResourceSpans of one ScopeSpans. It is valid
// until the next add.
func (sb *spanBatch) request() []byte {
	spans := len(sb.buf) - sb.room
	scopeSpans := len(sb.scope) + spans
	var head [2 * (1 + binary.MaxVarintLen64)]byte
	h := protowire.AppendTag(head[:0], 2, protowire.BytesType)
	h = protowire.AppendVarint(h, uint64(scopeSpans))
	resourceSpans := len(sb.resource) + len(h) + scopeSpans
	start := sb.room - len(sb.scope) - len(h) - len(sb.resource)
	// The head, written backwards from the first span.
	copy(sb.buf[sb.room-len(sb.scope):], sb.scope)
	copy(sb.buf[sb.room-len(sb.scope)-len(h):], h)
	copy(sb.buf[start:], sb.resource)
	outer := protowire.AppendVarint(protowire.AppendTag(head[:0], 1, protowire.BytesType), uint64(resourceSpans))
	start -= len(outer)
	copy(sb.buf[start:], outer)
	return sb.buf[start:]
}

// full reports whether the batch holds size spans, or batchBytes of them.
func (sb *spanBatch) full(size int) bool {
	return sb.n >= size || len(sb.buf)-sb.room >= batchBytes
}

// reset empties the batch, keeping its buffer.
func (sb *spanBatch) reset() {
	sb.buf = sb.buf[:sb.room]
	sb.n = 0
}

// appendSpan appends the fields of a Span (trace/v1) of kind SERVER.
func appendSpan(b []byte, s span) []byte {
	const kindServer = 2
	b = appendBytes(b, 1, s.traceID[:])
	b = appendBytes(b, 2, s.spanID[:])
	flags := uint32(flagSampled) | spanFlagHasIsRemote
	if s.hasParent {
		b = appendString(b, 3, s.parent.state)
		b = appendBytes(b, 4, s.parent.spanID[:])
		flags |= spanFlagIsRemote
	}
	b = appendString(b, 5, s.name)
	b = appendVarint(b, 6, kindServer)
	b = appendFixed64(b, 7, uint64(s.start.UnixNano()))
	b = appendFixed64(b, 8, uint64(s.end.UnixNano()))
	b = appendAttributes(b, 9, s.attrs)
	if s.failed != "" {
		const statusError = 2
		b = message(b, 15, func(b []byte) []byte {
			b = appendString(b, 2, s.failed)
			return appendVarint(b, 3, statusError)
		})
	}
	return protowire.AppendFixed32(protowire.AppendTag(b, 16, protowire.Fixed32Type), flags)
}

// OTLP's span flags past the W3C trace flags: whether the parent's
// remoteness is known, and that it is remote (a host's span).
const (
	spanFlagHasIsRemote = 0x100
	spanFlagIsRemote    = 0x200
)
