package hub

// ofMember reports whether member's counts are within q: every member's
// when q names none.
func (q Query) ofMember(member string) bool {
	return q.Member == "" || member == q.Member
}
