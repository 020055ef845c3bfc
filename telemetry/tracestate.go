package telemetry

import "strings"

// Bounds of the tracestate a span keeps of a client's _meta.tracestate.
// The W3C allows 32 entries of up to 256 characters each; a span keeps a
// few short ones, since the text is the client's and is exported.
const (
	maxTraceStateEntries = 8
	maxTraceStateBytes   = 256
)

// sanitizeTraceState returns the entries of a W3C trace-context
// tracestate (https://www.w3.org/TR/trace-context/#tracestate-header)
// that are well-formed: key=value, the key a simple key (a lowercase
// letter, then up to 255 of a-z, 0-9, _, -, *, /) or a multi-tenant one
// (tenant@system: a lowercase letter or digit and up to 240 more, then up
// to 14), the value 1 to 256 printable ASCII characters without "," or
// "=" and not ending in a space. Malformed entries and repeated keys (the
// first is kept) are dropped; at most maxTraceStateEntries entries are
// kept, in their order, and no more than maxTraceStateBytes in all: the
// entries from the first that does not fit on are dropped, as the W3C
// says to cut a tracestate, from its end.
func sanitizeTraceState(s string) string {
	var kept []string
	seen := map[string]bool{}
	size := 0
	for _, member := range strings.Split(s, ",") {
		member = strings.Trim(member, " \t")
		key, value, ok := strings.Cut(member, "=")
		if !ok || !validTraceStateKey(key) || !validTraceStateValue(value) || seen[key] {
			continue
		}
		add := len(member)
		if len(kept) > 0 {
			add++ // the comma
		}
		if len(kept) == maxTraceStateEntries || size+add > maxTraceStateBytes {
			break
		}
		seen[key] = true
		kept = append(kept, member)
		size += add
	}
	return strings.Join(kept, ",")
}

// validTraceStateKey reports whether key is a simple or a multi-tenant
// key of the W3C grammar.
func validTraceStateKey(key string) bool {
	tenant, system, multi := strings.Cut(key, "@")
	if !multi {
		return len(key) <= 256 && key != "" && isLower(key[0]) && allKeyChars(key[1:])
	}
	return tenant != "" && len(tenant) <= 241 && (isLower(tenant[0]) || isDigit(tenant[0])) && allKeyChars(tenant[1:]) &&
		system != "" && len(system) <= 14 && isLower(system[0]) && allKeyChars(system[1:])
}

func allKeyChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isLower(c) && !isDigit(c) && c != '_' && c != '-' && c != '*' && c != '/' {
			return false
		}
	}
	return true
}

// validTraceStateValue reports whether v is 1 to 256 of the characters
// 0x20 to 0x7E except "," and "=", the last not a space.
func validTraceStateValue(v string) bool {
	if v == "" || len(v) > 256 || v[len(v)-1] == ' ' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c > 0x7e || c == ',' || c == '=' {
			return false
		}
	}
	return true
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
