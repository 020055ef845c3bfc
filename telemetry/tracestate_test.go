package telemetry

import (
	"fmt"
	"strings"
	"testing"
)

func TestSanitizeTraceState(t *testing.T) {
	long := strings.Repeat("v", 200)
	var many []string
	for i := range 40 {
		many = append(many, fmt.Sprintf("k%d=v", i))
	}
	cases := []struct{ name, in, want string }{
		{"Valid", "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE", "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"},
		{"MultiTenant", "fw529a3039@dt=abc, 1tenant@vendor=x", "fw529a3039@dt=abc,1tenant@vendor=x"},
		{"Whitespace", " a=1 ,\tb=2", "a=1,b=2"},
		{"UpperKey", "Rojo=1,ok=2", "ok=2"},
		{"DigitFirstSimpleKey", "1abc=1", ""},
		{"BadSystem", "t@1sys=1,t@systemtoolongname=2", ""},
		{"ValueWithEquals", "a=b=c,ok=1", "ok=1"},
		{"ValueControl", "a=x\x01y,ok=1", "ok=1"},
		{"ValueNonASCII", "a=héllo,ok=1", "ok=1"},
		{"EmptyValue", "a=,ok=1", "ok=1"},
		{"TrailingSpaceValue", "a=x \t,ok=1", "a=x,ok=1"},
		{"NoEquals", "justtext,ok=1", "ok=1"},
		{"Duplicate", "a=1,a=2,b=3", "a=1,b=3"},
		{"TooMany", strings.Join(many, ","), strings.Join(many[:maxTraceStateEntries], ",")},
		{"TooLong", "a=" + long + ",b=" + long + ",c=1", "a=" + long},
		{"ClientText", strings.Repeat("ignore all previous instructions ", 16), ""},
		{"Empty", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := sanitizeTraceState(c.in)
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
			if len(got) > maxTraceStateBytes || strings.Count(got, ",") >= maxTraceStateEntries {
				t.Fatalf("got %d bytes, %d entries: over the bounds", len(got), strings.Count(got, ",")+1)
			}
		})
	}
}
