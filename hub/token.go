package hub

import (
	"strings"

	"github.com/nats-io/nkeys"

	"github.com/clumsies/clumsies/events"
)

// validNodeID reports whether id is n-<16 lowercase hex>.
func validNodeID(id string) bool {
	rest, ok := strings.CutPrefix(id, "n-")
	if !ok || len(rest) != 16 {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func validPublicKey(k string) bool { return nkeys.IsValidPublicUserKey(k) }

func validWorkspaceID(ws string) bool { return events.ValidWorkspaceID(ws) }
