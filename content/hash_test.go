package content

import (
	"strings"
	"testing"
)

func TestHash(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	}
	for _, tt := range tests {
		if got := Hash([]byte(tt.in)); got != tt.want {
			t.Errorf("Hash(%q): got %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestNormalizeHash(t *testing.T) {
	hex := "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	upper := strings.ToUpper(hex)
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"Empty", "", ""},
		{"Bare", hex, "sha256:" + hex},
		{"BareUpper", upper, "sha256:" + hex},
		{"Prefixed", "sha256:" + hex, "sha256:" + hex},
		{"PrefixedUpper", "SHA256:" + upper, "sha256:" + hex},
		{"TooShort", hex[:63], hex[:63]},
		{"TooLong", hex + "0", hex + "0"},
		{"NotHex", "z" + hex[1:], "z" + hex[1:]},
		{"OtherAlgorithm", "md5:" + hex, "md5:" + hex},
		{"PrefixOnly", "sha256:", "sha256:"},
		{"Spaces", " " + hex, " " + hex},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NormalizeHash(tt.in); got != tt.want {
				t.Errorf("NormalizeHash(%q): got %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
