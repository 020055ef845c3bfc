package content

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// hashPrefix starts every hash the server hands out.
const hashPrefix = "sha256:"

// Hash returns "sha256:" followed by the 64 lowercase hex digits of the
// SHA-256 of b, the one form of hash the server returns.
func Hash(b []byte) string {
	return formatHash(sha256.Sum256(b))
}

// formatHash returns the form Hash returns of a SHA-256 sum.
func formatHash(sum [sha256.Size]byte) string {
	return hashPrefix + hex.EncodeToString(sum[:])
}

// NormalizeHash brings a hash received from an agent into the form Hash
// returns, so the two can be compared with ==. "" stays "" (unknown); 64 hex
// digits in any case, with or without a "sha256:" prefix in any case, become
// "sha256:" and the lowercase digits. Anything else is returned unchanged,
// which never equals a real hash.
func NormalizeHash(s string) string {
	digits := s
	if len(s) > len(hashPrefix) && strings.EqualFold(s[:len(hashPrefix)], hashPrefix) {
		digits = s[len(hashPrefix):]
	}
	if len(digits) != 2*sha256.Size || !isHex(digits) {
		return s
	}
	return hashPrefix + strings.ToLower(digits)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
