package telemetry

import "encoding/hex"

// flagSampled is the W3C trace flags' sampled bit.
const flagSampled = 0x01

// remoteParent is the host's span a call's span is a child of: the W3C
// trace context a host put in params._meta.
type remoteParent struct {
	traceID [16]byte
	spanID  [8]byte
	flags   byte   // the trace flags, of which only sampled is kept
	state   string // the tracestate, its well-formed entries only
}

// parentOf reads the trace context of a call's _meta (traceparent and
// tracestate, strings); ok is false when there is none or its
// traceparent is malformed, and the call's span starts a trace of its
// own.
func parentOf(meta map[string]any) (p remoteParent, ok bool) {
	tp, _ := meta["traceparent"].(string)
	if p, ok = parseTraceparent(tp); !ok {
		return remoteParent{}, false
	}
	if ts, _ := meta["tracestate"].(string); ts != "" {
		p.state = sanitizeTraceState(ts)
	}
	return p, true
}

// parseTraceparent reads a W3C traceparent
// (https://www.w3.org/TR/trace-context/#traceparent-header):
// version-traceid-parentid-flags in lowercase hex, the version not ff,
// version 00 exactly 55 characters long, a later version possibly
// followed by "-" and more; neither id all zeros.
func parseTraceparent(s string) (p remoteParent, ok bool) {
	const size = 55
	if len(s) < size || s[2] != '-' || s[35] != '-' || s[52] != '-' {
		return p, false
	}
	if len(s) > size && (s[:2] == "00" || s[size] != '-') {
		return p, false
	}
	var version, flags [1]byte
	if !lowerHex(version[:], s[0:2]) || version[0] == 0xff ||
		!lowerHex(p.traceID[:], s[3:35]) || !lowerHex(p.spanID[:], s[36:52]) || !lowerHex(flags[:], s[53:55]) {
		return p, false
	}
	if p.traceID == ([16]byte{}) || p.spanID == ([8]byte{}) {
		return p, false
	}
	p.flags = flags[0] & flagSampled
	return p, true
}

// lowerHex decodes s, lowercase hex only, into dst, which it fills.
func lowerHex(dst []byte, s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isDigit(c) && (c < 'a' || c > 'f') {
			return false
		}
	}
	n, err := hex.Decode(dst, []byte(s))
	return err == nil && n == len(dst)
}
