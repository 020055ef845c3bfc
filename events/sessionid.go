package events

// The one rule for a session id, wherever one comes in: a memsetup's
// session_id, the optional session_id of a call over stateless HTTP, the
// session id a host hands a hook. An id outside it is refused, never
// recorded, and never handed to the agent.

// SessionIDPattern is the rule as a JSON Schema pattern (the tools'
// schemas advertise it).
const SessionIDPattern = `^[A-Za-z0-9_.:-]{1,128}$`

// MaxSessionID is the longest session id, in bytes.
const MaxSessionID = 128

// SessionIDRule says the rule in words, for error messages.
const SessionIDRule = "1 to 128 characters from A-Z a-z 0-9 _ . : -"

// ValidSessionID reports whether id follows SessionIDPattern. (Checked by
// hand: compiling the pattern's {1,128} costs a starting process more
// than every check it would ever make.)
func ValidSessionID(id string) bool {
	if len(id) == 0 || len(id) > MaxSessionID {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '_', c == '.', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}
