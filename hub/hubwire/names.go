package hubwire

import (
	"strconv"
	"strings"
)

// Domain is the hub's JetStream domain.
const Domain = "hub"

// APIPrefix is the hub's JetStream API as a node's server reaches it over
// its leaf link.
const APIPrefix = "$JS." + Domain + ".API"

// AggregateStream is the hub's stream that holds every node's events:
// it sources the shard streams (ShardStream), each of which sources the
// ledgers of its nodes.
const AggregateStream = "AGGREGATE"

// ShardStream is the name of the hub's shard stream k (from 1): it
// sources the ledgers of the nodes the registry places in shard k
// (Node.Shard), and the aggregate sources it.
func ShardStream(k int) string { return AggregateStream + "_S" + strconv.Itoa(k) }

// ShardOf returns the shard a stream name of ShardStream names, and
// false for any other name.
func ShardOf(stream string) (int, bool) {
	rest, ok := strings.CutPrefix(stream, AggregateStream+"_S")
	if !ok || rest == "" || rest[0] == '0' {
		return 0, false
	}
	k, err := strconv.Atoi(rest)
	return k, err == nil && k > 0
}

// SubjectPrefix is the first token of the aggregate's subjects:
// hub.<team>.<workspaceId>.<nodeId>.<event type>.
const SubjectPrefix = "hub"

// RegistryBucket is the key-value bucket that holds the registry, in the
// hub's account (replicated like the aggregate).
const RegistryBucket = "HUB_REGISTRY"

// TokenCookie is the cookie that carries the token of the hub's
// dashboard in a browser.
const TokenCookie = "clumsies_token"

// DashboardHeader marks a request of the dashboard's script (value "1").
const DashboardHeader = "X-Clumsies-Dashboard"
