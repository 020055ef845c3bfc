package events

// TypeCheck is written by the post-tool and stop hooks when the checks
// that rules in scope declare (their front matter's checks) ran on a
// change: after a tool call, the pattern checks on the lines it added to
// each file in scope; at the end of a turn, every check on the session's
// whole change. Like the other hook events, it is not a tool call.
const TypeCheck Type = "attest.check"

// MaxCheckResults bounds the results one attest.check records: the
// findings first, then the passes; Dropped counts the others.
const MaxCheckResults = 200

// CheckData is the payload of attest.check.
type CheckData struct {
	Host string `json:"host"`
	// Via is where the checks ran: ViaPostTool (also when empty) or ViaStop.
	Via string `json:"via,omitempty"`
	// Rules are the rules whose checks ran, each with the version (content
	// hash) whose checks these were, sorted by id.
	Rules []CheckedRule `json:"rules"`
	// Files are the files checked, workspace-relative, sorted: at stop,
	// the files the session changed that checks apply to.
	Files []string `json:"files"`
	// Results are the outcome of each check on each file: the findings
	// (Pass false) first.
	Results []CheckResult `json:"results"`
	// Dropped counts the results left out past MaxCheckResults.
	Dropped int `json:"dropped,omitempty"`
	// Unloaded are the ids of Rules the session had not loaded when the
	// checks ran.
	Unloaded []string `json:"unloaded,omitempty"`
	// Rejected is set at stop when the session closed its turn with
	// agentrejected and a reason: the findings that stand are on record
	// against that rejection.
	Rejected bool `json:"rejected,omitempty"`
	// Decision is what the stop made of the findings that stand: GateDeny
	// (the stop was refused), GateWarn (the agent was told) or empty (let
	// go: no finding, mode off, the rejection, or the block limit).
	Decision string `json:"decision,omitempty"`
	// ToolUseID is the host's own id of the tool call, where it gives one.
	ToolUseID string `json:"toolUseId,omitempty"`
	// Worktree is the git worktree of the change, as attest.file_edit's.
	Worktree string `json:"worktree,omitempty"`
}

// CheckedRule is a rule whose checks ran, at a version.
type CheckedRule struct {
	ID   string `json:"id"`
	Hash string `json:"hash"`
}

// CheckResult is one check of a rule on one file.
type CheckResult struct {
	Rule string `json:"rule"`
	// Constraint is the id of the rule's constraint the check stands for.
	Constraint string `json:"constraint"`
	// Check is the check's index in the rule's checks, from 0.
	Check int `json:"check"`
	// Kind is forbid, require or run.
	Kind string `json:"kind"`
	File string `json:"file"`
	Pass bool   `json:"pass"`
	// Line is the finding's line in the file (from 1); 0 for a pass or a
	// command.
	Line int `json:"line,omitempty"`
	// Match is the hash of the text a forbid pattern matched or of a
	// command's output, never the text.
	Match string `json:"match,omitempty"`
}
