package projections

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// The key layout. Every read model lives in one pebble keyspace; values are
// fixed-width big-endian integers (u64), raw bytes, or JSON of a struct
// (never of a map), so equal read models are equal bytes.
//
//	meta/schema                     u64   layout version (schemaVersion)
//	meta/checkpoint                 u64   sequence of the last applied event
//	meta/events                     u64   number of events applied
//	meta/agg/<aggregate>            u64   sequence of the aggregate's newest event
//	m/o/<id>                        JSON  Object without its Body
//	m/b/<id>                        raw   the published body of an object
//	m/p/<ns>/<path>                 raw   id of the object at path in namespace ns
//	d/<id>                          JSON  Draft, body included
//	u/r/<ruleId>                    u64   refs of a rule or workflow
//	u/c/<ruleId>\x00<constraintId>  u64   refs of one constraint
//	s/<sessionId>                   JSON  Session
//	t/<tool>                        4×u64 calls, errors, total µs, max µs
//	a/<sessionId>                   JSON  Compliance (compliance.go)
const (
	prefixObject     = "m/o/"
	prefixBody       = "m/b/"
	prefixPath       = "m/p/"
	prefixDraft      = "d/"
	prefixRuleRefs   = "u/r/"
	prefixConstraint = "u/c/"
	prefixSession    = "s/"
	prefixTool       = "t/"
	prefixAggregate  = "meta/agg/"
)

// The meta keys.
var (
	keySchema     = []byte("meta/schema")
	keyCheckpoint = []byte("meta/checkpoint")
	keyEvents     = []byte("meta/events")
)

// schemaVersion is the layout written by this build. Open refuses a store
// with any other version: read models are rebuilt, never migrated.
const schemaVersion = 3

func objectKey(id string) []byte                    { return []byte(prefixObject + id) }
func bodyKey(id string) []byte                      { return []byte(prefixBody + id) }
func pathKey(ns content.Namespace, p string) []byte { return []byte(prefixPath + string(ns) + "/" + p) }
func draftKey(id string) []byte                     { return []byte(prefixDraft + id) }
func ruleRefsKey(ruleID string) []byte              { return []byte(prefixRuleRefs + ruleID) }
func sessionKey(id string) []byte                   { return []byte(prefixSession + id) }
func toolKey(name string) []byte                    { return []byte(prefixTool + name) }
func aggregateKey(a events.Aggregate) []byte        { return []byte(prefixAggregate + string(a)) }

func constraintKey(ruleID, constraintID string) []byte {
	return []byte(prefixConstraint + ruleID + "\x00" + constraintID)
}

// parsePathKey splits the rest of a path index key, "<ns>/<path>".
func parsePathKey(rest string) (content.Namespace, string, error) {
	ns, p, ok := strings.Cut(rest, "/")
	if !ok {
		return "", "", fmt.Errorf("path index key %q has no namespace", rest)
	}
	return content.Namespace(ns), p, nil
}

// parseConstraintKey splits the rest of a constraint usage key,
// "<ruleId>\x00<constraintId>". Rule ids hold no NUL; constraint ids may.
func parseConstraintKey(rest string) (ruleID, constraintID string, err error) {
	ruleID, constraintID, ok := strings.Cut(rest, "\x00")
	if !ok {
		return "", "", fmt.Errorf("constraint usage key %q has no separator", rest)
	}
	return ruleID, constraintID, nil
}

// prefixEnd returns the smallest key greater than every key with prefix p.
// Prefixes here end in '/', never in 0xff.
func prefixEnd(p string) []byte {
	b := []byte(p)
	b[len(b)-1]++
	return b
}

func encodeU64(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

func decodeU64(b []byte) (uint64, error) {
	if len(b) != 8 {
		return 0, fmt.Errorf("want 8 bytes, got %d", len(b))
	}
	return binary.BigEndian.Uint64(b), nil
}
