package hubwire

// ValidName reports whether s can name a hub, a team or a member: 1 to
// 64 ASCII letters, digits, '-' and '_'. The hub refuses any other name;
// its clients check with the same rule before they ask.
func ValidName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
