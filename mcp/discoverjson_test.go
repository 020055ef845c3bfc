package mcp

import (
	"bytes"
	"encoding/json"
	"testing"
)

// discoverSamples are memdisc answers with every field set and unset, and
// strings that encoding/json escapes.
func discoverSamples(s string) []discoverResult {
	zero, two := 0, 2
	return []discoverResult{
		{},
		{Items: []discoverItem{}},
		{Items: []discoverItem{{ID: "p-1", Kind: "rule", Path: "go/A.md", Name: "A", Hash: "sha256:00"}}, Total: 1},
		{Items: []discoverItem{
			{ID: s, Kind: "rule", Path: s, Name: s, Group: s, Hash: s, Description: s, HasDraft: true, DraftStatus: s, DraftReason: s,
				Paths: []string{s, "a/**"}, Matched: []string{s}, Source: "team", Revision: 18446744073709551615, Shadows: s},
			{ID: "p-2", Kind: "context", Path: "x", Name: "x", Hash: "h", Paths: []string{}, Matched: []string{}},
		}, Total: 3, InScope: &two, Truncated: true, NextCursor: s, Hint: s},
		{Items: []discoverItem{{ID: "p-3"}}, InScope: &zero},
	}
}

// TestDiscoverJSON_SameAsEncodingJSON checks that memdisc's answer encoded
// by hand is, byte for byte, what encoding/json.Marshal writes.
func TestDiscoverJSON_SameAsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `say "hi" \ back\slash \"`, "<a href='x'>&amp;</a>", "é 😀 \u2028 \u2029 \b\f\t\n\r\x01\x1f \x7f",
		"\xff\xfe bad \xe2\x80 cut", "\xed\xa0\x80 surrogate", "\U0010FFFF"} {
		for i, r := range discoverSamples(s) {
			want, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.appendJSON(nil); !bytes.Equal(got, want) {
				t.Fatalf("sample %d with %q:\n got %s\nwant %s", i, s, got, want)
			}
		}
	}
}

// FuzzDiscoverJSON checks the same for any string.
func FuzzDiscoverJSON(f *testing.F) {
	for _, s := range []string{"", "<>&", "\u2028", "\xff", "\"\\\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i, r := range discoverSamples(s) {
			want, _ := json.Marshal(r)
			if got := r.appendJSON(nil); !bytes.Equal(got, want) {
				t.Fatalf("sample %d with %q:\n got %s\nwant %s", i, s, got, want)
			}
		}
	})
}

// TestDiscoverJSON_OneAllocation checks that a 50-item answer is encoded
// into one buffer made large enough at once.
func TestDiscoverJSON_OneAllocation(t *testing.T) {
	r := discoverResult{Total: 1000, Truncated: true, NextCursor: "eyJyIjoxLCJwIjoicnVsZXMvZzQ5L1JVTEUwOTgwLm1kIiwiaSI6InAtMDAifQ", Hint: "1000 items matched and this answer holds 50: narrow it."}
	for i := range 50 {
		r.Items = append(r.Items, discoverItem{ID: "p-0123456789abcdef0123456789abcdef", Kind: "rule", Path: "rules/g49/RULE0980.md", Name: "RULE0980", Group: "g49",
			Hash: "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", Description: "How the team handles concern number 980 in group 80 (audited).",
			HasDraft: i%7 == 0, Paths: []string{"api/**/*.go"}})
	}
	var got []byte
	if allocs := testing.AllocsPerRun(20, func() { got = r.appendJSON(nil) }); allocs != 1 {
		t.Fatalf("the answer of 50 items took %.0f allocations, want 1", allocs)
	}
	if cap(got) > len(got)*5/4 {
		t.Fatalf("the answer of %d bytes was written into a buffer of %d: want at most a quarter more", len(got), cap(got))
	}
}
