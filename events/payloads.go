package events

import "encoding/json"

// SetupData is the payload of attest.setup: the META_PROMPT hash the agent
// knew, the current one, and whether content was sent.
type SetupData struct {
	KnownHash string `json:"knownHash"`
	Hash      string `json:"hash"`
	Changed   bool   `json:"changed"`
	// Bound says how the session is bound to whoever set it up
	// (BoundByHook, BoundByMemsetup); absent for an unbound session: one
	// set up before sessions were bound, which keeps working unbound.
	Bound string `json:"bound,omitempty"`
	// SecretHash is the hash of the secret this memsetup issued, or took
	// from the agent, for a session no hook handed one.
	SecretHash string `json:"secretHash,omitempty"`
	// Client is the MCP client that set the session up, as its
	// initialize named itself (clientInfo).
	Client *ClientInfo `json:"client,omitempty"`
}

// ClientInfo is an MCP client's name and version, as it gave them.
type ClientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// DiscoverData is the payload of attest.discover: the filters and how many
// items matched.
type DiscoverData struct {
	Kind  string `json:"kind,omitempty"`
	Group string `json:"group,omitempty"`
	Query string `json:"query,omitempty"`
	Count int    `json:"count"`           // items in the answer
	Total int    `json:"total,omitempty"` // items that matched, in all pages`
	// Paths are the files the agent named (workspace-relative), and
	// InScope how many of the matching items are in scope for them.
	Paths   []string `json:"paths,omitempty"`
	InScope int      `json:"inScope,omitempty"`
}

// LoadData is the payload of attest.load.
type LoadData struct {
	Items []LoadedItem `json:"items"`
}

// LoadedItem is one item served by memload.
type LoadedItem struct {
	ID      string `json:"id"`
	Hash    string `json:"hash"`
	Changed bool   `json:"changed"`
	// Draft is set when the content served was a draft's (the tmp- id of
	// a create draft), not a published file's.
	Draft bool `json:"draft,omitempty"`
	// ConstraintsHash is, for a rule or workflow, the hash of the
	// constraints served with it: a later version with the same
	// constraints asks nothing new of the agent.
	ConstraintsHash string `json:"constraintsHash,omitempty"`
}

// Delivered reports whether the load gave the session a published body:
// the content was sent, and it was no draft's. A load whose known hash
// was current sent nothing; it gave the session no more than an earlier
// load did.
func (it LoadedItem) Delivered() bool { return it.Changed && !it.Draft }

// ReferData is the payload of attest.refer: every accepted reference of one
// memref call.
type ReferData struct {
	Refs []Ref `json:"refs"`
}

// Ref is one constraint an agent declared it applied.
type Ref struct {
	RuleID       string `json:"ruleId"`
	RuleHash     string `json:"ruleHash"`
	ConstraintID string `json:"constraintId"`
	Name         string `json:"name"`
	TextHash     string `json:"textHash"`
	Reason       string `json:"reason,omitempty"`
	// Revision is, for a rule of the team's catalog at the hub, the
	// catalog revision of the rule the agent referred to; 0 (absent) for
	// the repository's rules.
	Revision uint64 `json:"revision,omitempty"`
}

// AgentReportData is the payload of attest.agent_report.
type AgentReportData struct {
	Summary string `json:"summary"`
}

// RejectData is the payload of attest.reject.
type RejectData struct {
	Reason string `json:"reason,omitempty"`
}

// Resource is what an artifact call changes: a context file, a rule or
// workflow, or the META_PROMPT.
type Resource string

// The resources.
const (
	ResourceContext Resource = "context"
	ResourceRule    Resource = "rule"
	ResourceMPF     Resource = "mpf"
)

// Resources returns the resources in the order the tool lists them.
func Resources() []Resource { return []Resource{ResourceContext, ResourceRule, ResourceMPF} }

// DraftOp is what a draft does to its target.
type DraftOp string

// The kinds of draft.
const (
	DraftOpCreate DraftOp = "create"
	DraftOpUpdate DraftOp = "update"
	DraftOpRename DraftOp = "rename"
	DraftOpDelete DraftOp = "delete"
	// DraftOpDiscard is an artifact operation, not a kind of draft: it
	// drops the draft of an id.
	DraftOpDiscard DraftOp = "discard"
)

// DraftOps returns the artifact operations in the order the tool lists them.
func DraftOps() []DraftOp {
	return []DraftOp{DraftOpCreate, DraftOpUpdate, DraftOpRename, DraftOpDelete, DraftOpDiscard}
}

// EventType returns the type of the event that records an artifact call
// with this operation, "" for an unknown one. A call records the type of
// its operation even when it fails; a successful call records the type of
// its outcome (see DraftData).
func (op DraftOp) EventType() Type {
	for _, r := range table {
		if op != "" && r.op == op {
			return r.typ
		}
	}
	return ""
}

// DraftData is the payload of every attest.draft.* event. It carries the
// whole draft as it stands after the event, so replaying the stream
// rebuilds every draft and the projection is a plain fold: the event's
// type says what happened (attest.draft.discard: the draft is gone, also
// when a delete hit a create draft), Op what kind of draft remains (an
// update of a create draft leaves a create draft).
//
// ID is the public id the draft is keyed by: the tmp- id of a create draft,
// the object id for update, rename and delete, META_PROMPT.md for the mpf.
// Op is empty in events written before it was recorded; the fold then
// derives it as those versions did.
type DraftData struct {
	Resource    Resource `json:"resource"`
	ID          string   `json:"id"`
	Op          DraftOp  `json:"op,omitempty"`
	Path        string   `json:"path,omitempty"`
	NewPath     string   `json:"newPath,omitempty"`
	Body        string   `json:"body,omitempty"`
	BaseHash    string   `json:"baseHash,omitempty"`
	Description string   `json:"description,omitempty"`
}

// FailureData is the payload of every failed tool call: the message the
// agent got and the arguments it sent (cut to MaxFailureArgs bytes).
type FailureData struct {
	Message       string          `json:"message"`
	Args          json.RawMessage `json:"args,omitempty"`
	ArgsTruncated bool            `json:"argsTruncated,omitempty"`
}

// MaxFailureArgs bounds the arguments recorded with a failed call.
const MaxFailureArgs = 64 << 10

// PublishData is the payload of catalog.publish: one published object with
// its whole body.
type PublishData struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	Path        string `json:"path"`
	Name        string `json:"name"`
	Group       string `json:"group,omitempty"`
	Hash        string `json:"hash"`
	Body        string `json:"body"`
	Description string `json:"description,omitempty"`
}

// RemoveData is the payload of catalog.remove.
type RemoveData struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	Path string `json:"path"`
}

// ReidData is the payload of catalog.reid: the object at Path, published
// under From, is the object To from now on (the catalog.publish of To
// comes just before). What was counted under From counts under To.
type ReidData struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
	Path string `json:"path"`
}
