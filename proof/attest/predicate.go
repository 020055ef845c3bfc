package attest

// PredicateType is the type URI of the clumsies commit predicate, version
// 1. A change that readers of version 1 would misread gets a new version.
const PredicateType = "https://github.com/clumsies/clumsies/attest/commit/v1"

// Who wrote a committed file, as the ledger and the blob ids tell.
const (
	// ByAgent: the committed blob is one an agent's edit recorded.
	ByAgent = "agent"
	// ByMixed: agents edited the file, but the committed blob is none an
	// agent wrote (a later human edit, or a change no hook saw).
	ByMixed = "mixed"
	// ByHuman: no agent edit of the file is in the ledger for this change.
	ByHuman = "human"
)

// Predicate is the clumsies commit predicate: the files a commit changed,
// who wrote each, and for the agents' files the evidence of the ledger.
// docs/attest.md documents it field by field and docs/schema holds its
// JSON Schema.
type Predicate struct {
	// WorkspaceID is the workspace whose ledger the evidence is from.
	WorkspaceID string `json:"workspaceId"`
	// Commit is the commit attested, Base the commit its changes are
	// taken against (its first parent, or the range's base; "" for a root
	// commit).
	Commit string `json:"commit"`
	Base   string `json:"base"`
	// Files are the files changed between Base and Commit, by path.
	Files []File `json:"files"`
	// Sessions are the agent sessions of the files' edits, by id.
	Sessions []Session `json:"sessions"`
	// Ledger is the range of the ledger the evidence comes from and the
	// checkpoint that covers it.
	Ledger LedgerRange `json:"ledger"`
	// Notes say what the attribution could not establish.
	Notes []string `json:"notes"`
}

// File is one changed file.
type File struct {
	// Path is the file's path in the repository.
	Path string `json:"path"`
	// Blob is its git blob id in Commit ("" when the commit deletes it),
	// Base in Base ("" when the commit adds it).
	Blob string `json:"blob"`
	Base string `json:"base"`
	// By is ByAgent, ByMixed or ByHuman.
	By string `json:"by"`
	// Edits are the agent edits of the file that produced Blob from Base,
	// oldest first (ByAgent), or those that touched it (ByMixed).
	Edits []Edit `json:"edits"`
	// Complete is set when Edits lead from Base to Blob without a gap.
	Complete bool `json:"complete"`
	// Note says what is not known of this file's history, if anything.
	Note string `json:"note,omitempty"`
}

// Edit is one attest.file_edit as it concerns one file.
type Edit struct {
	// Seq is the event's ledger sequence, Time its time.
	Seq  uint64 `json:"seq"`
	Time string `json:"time"`
	// Session is the session id, Host the host, Tool the host's tool
	// name, ToolUseID the host's id of the call (where it gives one).
	Session   string `json:"session"`
	Host      string `json:"host"`
	Tool      string `json:"tool,omitempty"`
	ToolUseID string `json:"toolUseId,omitempty"`
	// Before and After are the file's blob ids before and after the edit
	// ("" for no file).
	Before string `json:"before"`
	After  string `json:"after"`
	// Unnamed is set when no argument of the tool named the file: the
	// working-tree check found the change (a script, a build, another
	// process).
	Unnamed bool `json:"unnamed,omitempty"`
	// Candidates are the other sessions that had a tool call open while
	// the file changed: the change may be theirs.
	Candidates []string `json:"candidates,omitempty"`
	// Rules are the rules and workflows in scope for the file's edit.
	Rules []RuleState `json:"rules"`
	// Gate are the gate's decisions on the session's tools naming the
	// file, since its previous edit of it.
	Gate []GateDecision `json:"gate"`
}

// RuleState is one rule in scope at an edit.
type RuleState struct {
	ID string `json:"id"`
	// Hash is the rule's published content hash at the edit.
	Hash string `json:"hash"`
	// Loaded is set when the session had loaded the rule (as the gate
	// counts it) when the edit was recorded; LoadedHash and LoadedSeq are
	// the version it last received before the edit and the memload's
	// sequence.
	Loaded     bool   `json:"loaded"`
	LoadedHash string `json:"loadedHash,omitempty"`
	LoadedSeq  uint64 `json:"loadedSeq,omitempty"`
}

// GateDecision is one attest.tool_gated.
type GateDecision struct {
	Seq       uint64   `json:"seq"`
	Tool      string   `json:"tool"`
	Decision  string   `json:"decision"`
	Missing   []string `json:"missing"`
	Unchecked string   `json:"unchecked,omitempty"`
}

// Session is one agent session of the attested edits.
type Session struct {
	ID    string `json:"id"`
	Host  string `json:"host"`
	Model string `json:"model,omitempty"`
	// Bound says how the session was bound to whoever set it up
	// (docs/sessions.md): "hook" (the host's session-start hook handed
	// the agent its secret) or "memsetup" (its first memsetup issued one);
	// absent for an unbound session, whose id another client holding the
	// workspace's token could have borrowed.
	Bound string `json:"bound,omitempty"`
	// Refs are the constraints the session declared it applied (memref)
	// of the rules in scope for its attested edits.
	Refs []Ref `json:"refs"`
}

// Ref is one memref reference.
type Ref struct {
	Seq          uint64 `json:"seq"`
	RuleID       string `json:"ruleId"`
	RuleHash     string `json:"ruleHash"`
	ConstraintID string `json:"constraintId"`
	TextHash     string `json:"textHash"`
}

// LedgerRange is the part of the ledger an attestation cites.
type LedgerRange struct {
	// From and Through are the first and last sequences cited (0 when no
	// agent edit is cited).
	From    uint64 `json:"from"`
	Through uint64 `json:"through"`
	// Read is the last sequence of the ledger when the attestation was
	// made: a verifier attributes again from the ledger up to it.
	Read uint64 `json:"read"`
	// ReadID is the id of the event at Read: a verifier tells by it
	// whether its ledger is the one the attestation was made from.
	ReadID string `json:"readId"`
	// Checkpoint is the first ledger.checkpoint whose chain covers
	// Through; nil when none does yet.
	Checkpoint *Checkpoint `json:"checkpoint"`
}

// Checkpoint is a ledger.checkpoint.
type Checkpoint struct {
	// Seq is the checkpoint event's own sequence; Through the sequence
	// its digest covers.
	Seq     uint64 `json:"seq"`
	Through uint64 `json:"through"`
	Digest  string `json:"digest"`
	Node    string `json:"node,omitempty"`
	Signed  bool   `json:"signed"`
}
