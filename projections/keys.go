package projections

import (
	"encoding/binary"
	"fmt"

	"github.com/clumsies/clumsies/events"
)

// The key layout. Every row belongs to one read model (see model and the
// registry, newState), under the model's prefix, or to the store core
// (meta/). Values are fixed-width big-endian integers (u64), raw bytes,
// JSON of a row type of the model (a struct, never an API type), or a
// binary encoding of one (bin), so equal read models are equal bytes. Each model builds its keys in its own file.
//
//	meta/schema                     u64   layout version (schemaVersion)
//	meta/checkpoint                 u64   sequence of the last applied event
//	meta/events                     u64   number of events applied
//	meta/agg/<aggregate>            u64   sequence of the aggregate's newest event
//	m/o/<id>                        bin   objectRow: an object without its body (manifest.go, objectrow.go)
//	m/b/<id>                        raw   the published body of an object (not loaded at Open)
//	m/p/<ns>/<path>                 raw   id of the object at path in namespace ns
//	m/r/<id>                        raw   the id a catalog.reid gave in place of id (manifest.go)
//	d/m/<id>                        JSON  draftRow: the open draft of an id, without its body (drafts.go)
//	d/c/<id>/<seq>                  JSON  draftRow: a draft whose review ended with event seq
//	d/b/<id>/<seq>                  raw   the body event seq gave a create or update draft (not loaded at Open)
//	u/r/<ruleId>                    u64   refs of a rule or workflow (usage.go)
//	u/c/<ruleId>\x00<constraintId>  u64   refs of one constraint
//	s/<sessionId>                   JSON  sessionRow (sessions.go)
//	t/<tool>                        4×u64 toolRow: calls, errors, total µs, max µs (tools.go)
//	a/<sessionId>                   JSON  complianceRow (compliance.go)
//	e/<sessionId>                   JSON  evidence.Row: files touched, rules in scope, referenced, the gates' figures, the host, and the versions of rules it received, which the gate reads too (evidence.go, gate.go)
//	l/chain                         JSON  chainRow: the ledger's hash chain (chain.go)
//	l/e/<(seq-1)/64 u64>           ≤64×8 bytes  the digest of each message of the block (chainat.go; not loaded at Open)
//	x/d/<day>                       JSON  dayRow: counts of one UTC day (dash.go)
//	x/h/<tool>                      128×u64 latency histogram of a tool
//	x/r/<ruleId>\x00<day>           u64   refs of a rule on one day
//	x/s/<sessionId>\x00<seq/256>    4×u64 bitmap: the session's events among 256 sequences (seqindex.go)
//	x/a/<ruleId>\x00<seq/256>       4×u64 bitmap: the memrefs naming the rule among 256 sequences
//	x/l/p/<id>\x00<seq>             JSON  PublishEntry (not loaded at Open)
const (
	prefixMeta      = "meta/"
	prefixAggregate = "meta/agg/"
)

// The meta keys.
var (
	keySchema     = []byte("meta/schema")
	keyCheckpoint = []byte("meta/checkpoint")
	keyEvents     = []byte("meta/events")
)

// schemaVersion is the layout written by this build. Open refuses a store
// with any other version: read models are rebuilt, never migrated.
const schemaVersion = 17

func aggregateKey(a events.Aggregate) []byte { return []byte(prefixAggregate + string(a)) }

func encodeU64(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

func decodeU64(b []byte) (uint64, error) {
	if len(b) != 8 {
		return 0, fmt.Errorf("want 8 bytes, got %d", len(b))
	}
	return binary.BigEndian.Uint64(b), nil
}
