package telemetry

import (
	"context"
	"sync"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/encoding/protowire"
)

// spanExporter sends the SDK's batches of spans to the collector's
// /v1/traces as an OTLP ExportTraceServiceRequest.
type spanExporter struct {
	post *poster
	mu   sync.Mutex // guards buf
	buf  []byte     // the last request's bytes, reused
}

var _ sdktrace.SpanExporter = (*spanExporter)(nil)

// ExportSpans sends spans in one request; it returns the error of a
// request the collector refused or that did not arrive.
func (e *spanExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if len(spans) == 0 {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.buf = appendTraceRequest(e.buf[:0], spans)
	return e.post.send(ctx, e.buf)
}

// Shutdown implements sdktrace.SpanExporter; the batch processor has
// sent everything by then.
func (e *spanExporter) Shutdown(context.Context) error { return nil }

// appendTraceRequest appends an ExportTraceServiceRequest: a
// ResourceSpans per run of spans of the same resource and scope (the
// SDK's batch is of one TracerProvider: one run in practice).
func appendTraceRequest(b []byte, spans []sdktrace.ReadOnlySpan) []byte {
	for i := 0; i < len(spans); {
		j := i + 1
		for j < len(spans) && spans[j].Resource() == spans[i].Resource() && spans[j].InstrumentationScope() == spans[i].InstrumentationScope() {
			j++
		}
		run := spans[i:j]
		b = message(b, 1, func(b []byte) []byte {
			b = appendResource(b, 1, run[0].Resource())
			b = message(b, 2, func(b []byte) []byte {
				b = appendScope(b, 1, run[0].InstrumentationScope())
				for _, s := range run {
					b = message(b, 2, func(b []byte) []byte { return appendSpan(b, s) })
				}
				return appendString(b, 3, run[0].InstrumentationScope().SchemaURL)
			})
			return appendString(b, 3, run[0].Resource().SchemaURL())
		})
		i = j
	}
	return b
}

// appendSpan appends the fields of a Span (trace/v1).
func appendSpan(b []byte, s sdktrace.ReadOnlySpan) []byte {
	sc := s.SpanContext()
	tid, sid := sc.TraceID(), sc.SpanID()
	b = appendBytes(b, 1, tid[:])
	b = appendBytes(b, 2, sid[:])
	b = appendString(b, 3, sc.TraceState().String())
	if p := s.Parent(); p.SpanID().IsValid() {
		psid := p.SpanID()
		b = appendBytes(b, 4, psid[:])
	}
	b = appendString(b, 5, s.Name())
	b = appendVarint(b, 6, uint64(s.SpanKind())) // the SDK's kinds are OTLP's numbers
	b = appendFixed64(b, 7, uint64(s.StartTime().UnixNano()))
	b = appendFixed64(b, 8, uint64(s.EndTime().UnixNano()))
	b = appendAttributes(b, 9, s.Attributes())
	b = appendVarint(b, 10, uint64(s.DroppedAttributes()))
	for _, ev := range s.Events() {
		b = message(b, 11, func(b []byte) []byte {
			b = appendFixed64(b, 1, uint64(ev.Time.UnixNano()))
			b = appendString(b, 2, ev.Name)
			b = appendAttributes(b, 3, ev.Attributes)
			return appendVarint(b, 4, uint64(ev.DroppedAttributeCount))
		})
	}
	b = appendVarint(b, 12, uint64(s.DroppedEvents()))
	for _, l := range s.Links() {
		b = message(b, 13, func(b []byte) []byte {
			ltid, lsid := l.SpanContext.TraceID(), l.SpanContext.SpanID()
			b = appendBytes(b, 1, ltid[:])
			b = appendBytes(b, 2, lsid[:])
			b = appendString(b, 3, l.SpanContext.TraceState().String())
			b = appendAttributes(b, 4, l.Attributes)
			b = appendVarint(b, 5, uint64(l.DroppedAttributeCount))
			return protowire.AppendFixed32(protowire.AppendTag(b, 6, protowire.Fixed32Type), spanFlags(l.SpanContext.TraceFlags(), l.SpanContext))
		})
	}
	b = appendVarint(b, 14, uint64(s.DroppedLinks()))
	if st := s.Status(); st.Code != codes.Unset {
		b = message(b, 15, func(b []byte) []byte {
			b = appendString(b, 2, st.Description)
			return appendVarint(b, 3, statusCode(st.Code))
		})
	}
	return protowire.AppendFixed32(protowire.AppendTag(b, 16, protowire.Fixed32Type), spanFlags(sc.TraceFlags(), s.Parent()))
}

// statusCode is OTLP's number of a status code (the SDK numbers Ok and
// Error the other way round).
func statusCode(c codes.Code) uint64 {
	return wireEnum(c, codes.Ok, codes.Error)
}

// spanFlags are OTLP's span flags: the W3C trace flags tf, and whether
// the parent (or the linked span) is remote.
func spanFlags(tf trace.TraceFlags, parent trace.SpanContext) uint32 {
	const hasIsRemote, isRemote = 0x100, 0x200
	f := uint32(tf) | hasIsRemote
	if parent.IsRemote() {
		f |= isRemote
	}
	return f
}
