package telemetry

import "testing"

func TestParseTraceparent(t *testing.T) {
	const trace, span = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	cases := []struct {
		name, in string
		ok       bool
		flags    byte
	}{
		{"Sampled", "00-" + trace + "-" + span + "-01", true, 1},
		{"NotSampled", "00-" + trace + "-" + span + "-00", true, 0},
		{"OtherFlagsDropped", "00-" + trace + "-" + span + "-ff", true, 1},
		{"LaterVersionMore", "01-" + trace + "-" + span + "-01-whatever", true, 1},
		{"LaterVersionExact", "cc-" + trace + "-" + span + "-01", true, 1},
		{"Version00More", "00-" + trace + "-" + span + "-01-x", false, 0},
		{"LaterVersionNoDash", "01-" + trace + "-" + span + "-01x", false, 0},
		{"VersionFF", "ff-" + trace + "-" + span + "-01", false, 0},
		{"Upper", "00-4BF92F3577B34DA6A3CE929D0E0E4736-" + span + "-01", false, 0},
		{"ZeroTrace", "00-00000000000000000000000000000000-" + span + "-01", false, 0},
		{"ZeroSpan", "00-" + trace + "-0000000000000000-01", false, 0},
		{"NotHex", "00-" + trace + "-" + "00f067aa0ba902bz" + "-01", false, 0},
		{"Short", "00-" + trace + "-" + span + "-1", false, 0},
		{"Separators", "00_" + trace + "-" + span + "-01", false, 0},
		{"Empty", "", false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, ok := parseTraceparent(c.in)
			if ok != c.ok {
				t.Fatalf("parse %q: ok %v, want %v", c.in, ok, c.ok)
			}
			if !ok {
				return
			}
			if got := hexOf(p.traceID[:]); got != trace {
				t.Errorf("trace id %s, want %s", got, trace)
			}
			if got := hexOf(p.spanID[:]); got != span {
				t.Errorf("span id %s, want %s", got, span)
			}
			if p.flags != c.flags {
				t.Errorf("flags %x, want %x", p.flags, c.flags)
			}
		})
	}
}
