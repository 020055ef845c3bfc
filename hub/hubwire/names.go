package hubwire

// Domain is the hub's JetStream domain.
const Domain = "hub"

// APIPrefix is the hub's JetStream API as a node's server reaches it over
// its leaf link.
const APIPrefix = "$JS." + Domain + ".API"

// AggregateStream is the hub's stream that sources every node's ledger.
const AggregateStream = "AGGREGATE"

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
