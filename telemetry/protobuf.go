package telemetry

import (
	"math"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
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
func appendAttributes(b []byte, num protowire.Number, kvs []attribute.KeyValue) []byte {
	for _, kv := range kvs {
		b = message(b, num, func(b []byte) []byte {
			b = appendString(b, 1, string(kv.Key))
			return message(b, 2, func(b []byte) []byte { return appendValue(b, kv.Value) })
		})
	}
	return b
}

// appendValue appends the fields of an AnyValue.
func appendValue(b []byte, v attribute.Value) []byte {
	switch v.Type() {
	case attribute.BOOL:
		x := uint64(0)
		if v.AsBool() {
			x = 1
		}
		return protowire.AppendVarint(protowire.AppendTag(b, 2, protowire.VarintType), x)
	case attribute.INT64:
		return protowire.AppendVarint(protowire.AppendTag(b, 3, protowire.VarintType), uint64(v.AsInt64()))
	case attribute.FLOAT64:
		return appendDouble(b, 4, v.AsFloat64())
	case attribute.STRING:
		return protowire.AppendString(protowire.AppendTag(b, 1, protowire.BytesType), v.AsString())
	case attribute.BOOLSLICE:
		return appendArray(b, v.AsBoolSlice(), attribute.BoolValue)
	case attribute.INT64SLICE:
		return appendArray(b, v.AsInt64Slice(), attribute.Int64Value)
	case attribute.FLOAT64SLICE:
		return appendArray(b, v.AsFloat64Slice(), attribute.Float64Value)
	case attribute.STRINGSLICE:
		return appendArray(b, v.AsStringSlice(), attribute.StringValue)
	default: // what this package never sets: sent as its text
		return protowire.AppendString(protowire.AppendTag(b, 1, protowire.BytesType), v.String())
	}
}

// appendArray appends an AnyValue's array_value of xs.
func appendArray[T any](b []byte, xs []T, value func(T) attribute.Value) []byte {
	return message(b, 5, func(b []byte) []byte {
		for _, x := range xs {
			b = message(b, 1, func(b []byte) []byte { return appendValue(b, value(x)) })
		}
		return b
	})
}

// appendResource appends a Resource in field num.
func appendResource(b []byte, num protowire.Number, r *resource.Resource) []byte {
	return message(b, num, func(b []byte) []byte {
		if r == nil {
			return b
		}
		return appendAttributes(b, 1, r.Attributes())
	})
}

// appendScope appends an InstrumentationScope in field num.
func appendScope(b []byte, num protowire.Number, s instrumentation.Scope) []byte {
	return message(b, num, func(b []byte) []byte {
		b = appendString(b, 1, s.Name)
		return appendString(b, 2, s.Version)
	})
}

func appendDouble(b []byte, num protowire.Number, f float64) []byte {
	return appendFixed64(b, num, math.Float64bits(f))
}

// wireEnum is OTLP's number of v for an enum whose values past 0 are one
// and two: 1, 2, or 0 (unspecified) for anything else.
func wireEnum[T comparable](v, one, two T) uint64 {
	switch v {
	case one:
		return 1
	case two:
		return 2
	default:
		return 0
	}
}
