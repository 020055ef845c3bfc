package hubwire

import (
	"time"
)

// Node is one machine's clone of a workspace, joined to the hub.
type Node struct {
	ID        string `json:"id"`
	PublicKey string `json:"publicKey"`
	Team      string `json:"team"`
	Workspace string `json:"workspaceId"`
	// WorkspaceName is the name the node gave its workspace when it
	// joined (JoinRequest.WorkspaceName); "" when it gave none.
	WorkspaceName string    `json:"workspaceName,omitempty"`
	Member        string    `json:"member,omitempty"`
	Joined        time.Time `json:"joined"`
	Revoked       time.Time `json:"revoked,omitzero"`
	// Shard is the shard stream that sources the node's ledger
	// (ShardStream), fixed when the node joined; 0 for a node of a hub
	// made before the aggregate was sharded, until the hub moves it.
	Shard int `json:"shard,omitempty"`
	// SourceFrom is the last sequence of the node's ledger the aggregate
	// held when the node was moved to its shard (0: none, or a node
	// joined since): its shard sources the ledger after it.
	SourceFrom uint64 `json:"sourceFrom,omitempty"`
}

// Active reports whether the node is not revoked.
func (n Node) Active() bool { return n.Revoked.IsZero() }

// Link is what the hub knows about a node's leaf link.
type Link struct {
	// Up reports whether the node is linked now.
	Up bool `json:"up"`
	// Since is when the link came up (Up) or went down (not Up); zero if
	// the node was never linked since the hub started.
	Since time.Time `json:"since,omitzero"`
}

// NodeInfo is a node as the API lists it: the registry's entry and its
// link.
type NodeInfo struct {
	Node
	Link Link `json:"link"`
}

// NodeStatus is what the hub knows about one node.
type NodeStatus struct {
	Node
	Link Link `json:"link"`
	// HubSeq is the last sequence of the node's ledger the hub has
	// applied.
	HubSeq uint64 `json:"hubSeq"`
}

// TeamNode is what a team's dashboard shows of one node: whether it is
// linked and how far behind the hub is with its ledger.
type TeamNode struct {
	ID        string    `json:"id"`
	Team      string    `json:"team"`
	Workspace string    `json:"workspaceId"`
	Member    string    `json:"member,omitempty"`
	Joined    time.Time `json:"joined"`
	Link      Link      `json:"link"`
	// HubSeq is the last sequence of the node's ledger the hub's
	// projector has applied.
	HubSeq uint64 `json:"hubSeq"`
	// Sourcing is the aggregate's source of the node: Lag is the messages
	// of the node's ledger the aggregate has not received yet, as the
	// hub's JetStream last saw them (it knows only while the link is up),
	// Active how long since it last heard from the source. Nil when the
	// aggregate has no source for the node (being re-sourced).
	Sourcing *Sourcing `json:"sourcing,omitempty"`
}

// Sourcing is the state of one source of the aggregate.
type Sourcing struct {
	Lag    uint64        `json:"lag"`
	Active time.Duration `json:"activeNs"`
	// Stalled is true while the source reports its consumer stalled on
	// flow control: the node's sourcing consumer waits for a reply it
	// has not received, and sends nothing more until the source is made
	// again.
	Stalled bool `json:"stalled,omitempty"`
}

// ChainProblem is where a node's ledger, as the hub received it, first
// disagrees with itself.
type ChainProblem struct {
	// Seq is the node's ledger sequence of the first problem: a message
	// the hub never received, or the checkpoint that does not hold.
	Seq    uint64 `json:"seq"`
	Reason string `json:"reason"`
}

// NodeChain is the hub's chain of one node's ledger.
type NodeChain struct {
	Node      string `json:"node"`
	Workspace string `json:"workspaceId"`
	// Through is the last sequence of the node's ledger the hub chained,
	// Digest the chain digest through it ("" before the first).
	Through uint64 `json:"through"`
	Digest  string `json:"digest,omitempty"`
	// Checkpoints counts the node's checkpoints the hub received, Signed
	// those whose signature holds; Verified is the sequence through which
	// they agree with what the hub received.
	Checkpoints int    `json:"checkpoints"`
	Signed      int    `json:"signed"`
	Verified    uint64 `json:"verified"`
	// Problem is the first disagreement, nil if the chain holds.
	Problem *ChainProblem `json:"problem,omitempty"`
	// At is the hub's digest through the sequence asked for with ?at=.
	At *ChainLink `json:"at,omitempty"`
}

// ChainLink is the chain digest through one sequence.
type ChainLink struct {
	Seq    uint64 `json:"seq"`
	Digest string `json:"digest"`
}

// Key returns the sort key of a node of GET /api/nodes: its id.
func (n NodeInfo) Key() []string { return []string{n.ID} }

// Key returns the sort key of a team's node: team, member, id.
func (n TeamNode) Key() []string { return []string{n.Team, n.Member, n.ID} }

// TeamNodePage is a page of GET /api/team/nodes, with how many of all the
// listed nodes have their link up.
type TeamNodePage struct {
	Page[TeamNode]
	Online int `json:"online"`
}
