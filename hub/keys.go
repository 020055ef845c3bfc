package hub

import (
	"encoding/binary"
	"strings"
)

// The key layout of the hub's read models (pebble). Parts are joined by
// sep, which no id, name or day holds.
//
//	cp                                             last applied aggregate sequence
//	bad                                            messages refused (forged or malformed)
//	layout                                         the version of the rows (hubLayout)
//	e <eventId>                                    an event applied (de-duplication)
//	n <nodeId>                                     the node's last ledger sequence seen
//	k <nodeId> <sessionId>                         a session seen: its first day and kind (JSON sessionRow)
//	h <nodeId>                                     the node's chain head (JSON ledger.CheckerState)
//	d <nodeId> <seq, 8 bytes big-endian>           the node's chain digest through seq (32 bytes)
//	p <team> <workspaceId> <ruleId>                a published rule or workflow -> its path, then
//	                                               its constraint ids, one per line (publishedRow)
//	a <team> <workspaceId> <ruleId>                the id a rule of the workspace has now (catalog.reid)
//	i <team> <workspaceId> <ruleId>                the same, as the evidence model follows it (its own copy)
//	g <team> <workspaceId> <ruleId>                a published rule or workflow that declares paths
//	v <team> <workspaceId> <nodeId> <sessionId>    a session's evidence (JSON evidenceRow)
//	r d <nodeId> <draftId>                         a draft in progress (JSON catalog.Draft)
//	r v <reviewId>                                 a review as the node's events leave it (JSON hubwire.Review)
//	r o <nodeId> <draftId>                         the id of the draft's review in progress
//	c <day> <team> <workspaceId> <nodeId> <member> <metric> <ruleId> <constraintId>
//	                                               a daily counter (uint64)
//
// The read side of the hub's ledger (ledgerread.go) keeps its rows under
// L, loaded by a registry of its own:
//
//	L cp                                           last applied sequence of the hub's ledger
//	L layout                                       the version of its rows (ledgerReadLayout)
//	L t <team>                                     the sequence of the team's newest event (uint64)
//	L o <reviewId>                                 the review's outcome (JSON outcomeRow)
const sep = "\x00"

// The rows of the hub ledger's read side.
const (
	prefixLedger        = "L" + sep
	keyLedgerCheckpoint = prefixLedger + "cp"
	keyLedgerLayout     = prefixLedger + "layout"
	prefixLedgerTeam    = prefixLedger + "t" + sep
	prefixLedgerOutcome = prefixLedger + "o" + sep
)

var (
	keyCheckpoint = []byte("cp")
	keyBad        = []byte("bad")
	keyLayout     = []byte("layout")
)

func keyNodeSeq(nodeID string) []byte { return []byte("n" + sep + nodeID) }

func keyChainHead(nodeID string) []byte { return []byte("h" + sep + nodeID) }

func keyChainAt(nodeID string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte("d"+sep+nodeID+sep), seq)
}

func keyEvent(id string) []byte { return []byte("e" + sep + id) }

func keySession(nodeID, session string) []byte {
	return []byte("k" + sep + nodeID + sep + session)
}

func keyPublished(team, ws, rule string) []byte {
	return []byte("p" + sep + team + sep + ws + sep + rule)
}

func prefixPublished() []byte { return []byte("p" + sep) }

// keyLastPath is the row of the path a rule or workflow was last
// published at: kept after a catalog.remove, so that the hub names a
// removed rule by its path.
func keyLastPath(team, ws, rule string) []byte {
	return []byte("l" + sep + team + sep + ws + sep + rule)
}

func prefixLastPath() []byte { return []byte("l" + sep) }

func keyAlias(team, ws, rule string) []byte {
	return []byte("a" + sep + team + sep + ws + sep + rule)
}

func prefixAlias() []byte { return []byte("a" + sep) }

// keyFollowed is the evidence model's row of a reid it followed.
func keyFollowed(team, ws, rule string) []byte {
	return []byte("i" + sep + team + sep + ws + sep + rule)
}

func prefixFollowed() []byte { return []byte("i" + sep) }

func keyScoped(team, ws, rule string) []byte {
	return []byte("g" + sep + team + sep + ws + sep + rule)
}

func prefixScoped() []byte { return []byte("g" + sep) }

func keyEvidence(team, ws, node, session string) []byte {
	return []byte("v" + sep + team + sep + ws + sep + node + sep + session)
}

func prefixEvidence() []byte { return []byte("v" + sep) }

// counter is one daily counter's coordinates.
type counter struct {
	Day, Team, Workspace, Node, Member, Metric, Rule, Constraint string
}

func (c counter) key() []byte {
	return []byte(strings.Join([]string{"c", c.Day, c.Team, c.Workspace, c.Node, c.Member, c.Metric, c.Rule, c.Constraint}, sep))
}

func prefixDay(day string) []byte { return []byte("c" + sep + day + sep) }

func parseCounter(k []byte) (counter, bool) {
	p := strings.Split(string(k), sep)
	if len(p) != 9 || p[0] != "c" {
		return counter{}, false
	}
	return counter{p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8]}, true
}

// Metrics the hub projector counts.
const (
	metricEvents = "events"
	metricRefs   = "refs"  // per rule and constraint
	metricLoads  = "loads" // per rule or context item
	// metricSessions counts the sessions set up, first seen that day
	// (sessionkind.go); the name differs from the "sessions" of older
	// builds, which counted every session id.
	metricSessions = "setup"
	// metricHookSessions counts the sessions hooks saw before any setup,
	// first seen that day; metricHookSetUp those of them set up since.
	metricHookSessions = "hooked"
	metricHookSetUp    = "hookedsetup"
	metricReports      = "reports"
	metricRejects      = "rejects"
	// metricRevRefs counts the refs of a team rule per catalog revision
	// the agent referred to (the revision in the counter's constraint
	// field).
	metricRevRefs = "revrefs"
)

func putUint(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

func getUint(b []byte) uint64 {
	if len(b) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

// streamSourceHeader is the header the aggregate writes on every sourced
// message: where it came from.
const streamSourceHeader = "Nats-Stream-Source"

// The rows that let a stats read cost what changed (statsdays.go).
//
//	x <day> <team> <workspaceId> <nodeId> <sessionId>  a session's evidence, by the last day it was seen
//	y <team> <workspaceId> <nodeId> <host>             a host that recorded a file edit in the node's ledger (evidence.Hosts)
//	sc <day>                                           the aggregate sequence that last changed the day's counters
//	sv <day>                                           the same for the evidence of the sessions last seen that day
//	sv *                                               the same for every day's evidence (a reid, a node's new host)
//	sg *                                               the same for the rules' facts and ids every day reads (the catalog)
func keyLastSeen(day, team, ws, node, session string) []byte {
	return []byte("x" + sep + day + sep + team + sep + ws + sep + node + sep + session)
}

func prefixLastSeen(day string) []byte { return []byte("x" + sep + day + sep) }

func keyNodeHost(team, ws, node, host string) []byte {
	return []byte("y" + sep + team + sep + ws + sep + node + sep + host)
}

func prefixNodeHosts(team, ws, node string) []byte {
	return []byte("y" + sep + team + sep + ws + sep + node + sep)
}

// The prefixes of the versions each model keeps of what it changed.
const (
	prefixCountsVersion   = "sc" + sep
	prefixEvidenceVersion = "sv" + sep
	prefixCatalogVersion  = "sg" + sep
)

// everyDay is the day of a version that every day's answer reads.
const everyDay = "*"

func keyVersion(prefix, day string) []byte { return []byte(prefix + day) }
