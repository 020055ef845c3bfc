package telemetry

import (
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// The OTLP messages are written field by field with protowire, from the
// field numbers of opentelemetry-proto (common/v1, resource/v1): the
// generated Go packages of the OTLP collector services link gRPC and its
// HTTP gateway into every process, which is what this package avoids
// (BENCHMARKS.md, "The one binary lean again").

// message appends field num holding the message body appends.
func message(b []byte, num protowire.Number, body func([]byte) []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	start := len(b)
	b = body(b)
	n := len(b) - start
	// Move the body to make room for its length in front of it.
	size := protowire.SizeVarint(uint64(n))
	b = append(b, make([]byte, size)...)
	copy(b[start+size:], b[start:start+n])
	protowire.AppendVarint(b[start:start], uint64(n))
	return b
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	return protowire.AppendString(protowire.AppendTag(b, num, protowire.BytesType), s)
}

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
}

func appendVarint(b []byte, num protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), v)
}

func appendFixed64(b []byte, num protowire.Number, v uint64) []byte {
	return protowire.AppendFixed64(protowire.AppendTag(b, num, protowire.Fixed64Type), v)
}

// appendAttributes appends each attribute as a KeyValue in field num.
func appendAttributes(b []byte, num protowire.Number, attrs []attr) []byte {
	for _, a := range attrs {
		b = message(b, num, func(b []byte) []byte {
			b = appendString(b, 1, a.key)
			return message(b, 2, func(b []byte) []byte { return appendValue(b, a) })
		})
	}
	return b
}

// appendValue appends the fields of a's AnyValue: string_value (1),
// bool_value (2) or array_value (5) of string values.
func appendValue(b []byte, a attr) []byte {
	switch a.kind {
	case kindBool:
		x := uint64(0)
		if a.b {
			x = 1
		}
		return protowire.AppendVarint(protowire.AppendTag(b, 2, protowire.VarintType), x)
	case kindStrings:
		return message(b, 5, func(b []byte) []byte {
			for _, s := range a.strs {
				b = message(b, 1, func(b []byte) []byte {
					return protowire.AppendString(protowire.AppendTag(b, 1, protowire.BytesType), s)
				})
			}
			return b
		})
	default:
		return protowire.AppendString(protowire.AppendTag(b, 1, protowire.BytesType), a.str)
	}
}

// appendResource appends a Resource of attrs in field num.
func appendResource(b []byte, num protowire.Number, attrs []attr) []byte {
	return message(b, num, func(b []byte) []byte { return appendAttributes(b, 1, attrs) })
}

// appendScope appends the InstrumentationScope of this package in field
// num.
func appendScope(b []byte, num protowire.Number) []byte {
	return message(b, num, func(b []byte) []byte { return appendString(b, 1, scope) })
}

func appendDouble(b []byte, num protowire.Number, f float64) []byte {
	return appendFixed64(b, num, math.Float64bits(f))
}
