package events

// TypeFileEdit is written by the post-tool and stop hooks (clumsies hook
// post-tool, stop) for each tool use that changed files, and for changes
// the working-tree check found at the end of a turn: what the host and the
// working tree saw, not what the agent says it did.
const TypeFileEdit Type = "attest.file_edit"

// OutsidePath stands in attest.file_edit for every path the tool touched
// outside the workspace: the ledger keeps no path of the user's machine
// beyond the workspace.
const OutsidePath = "(outside)"

// Where a change was seen, as attest.file_edit's via records it.
const (
	ViaPostTool = "post-tool" // the hook after a tool (also what an empty via means)
	ViaStop     = "stop"      // the working-tree check at the end of a turn
)

// FileEditData is the payload of attest.file_edit. It never holds file
// contents.
type FileEditData struct {
	// Host is the adapter's host name, such as claude-code.
	Host string `json:"host"`
	// Tool is the host's name of the tool that changed the files (Write,
	// replace, apply_patch, Bash, ...); empty for a change found at stop.
	Tool string `json:"tool"`
	// Paths are the files touched, relative to the workspace root with
	// forward slashes, sorted and each once; OutsidePath for those outside
	// the workspace. A path reached through a symbolic link is recorded by
	// its real place in the workspace.
	Paths []string `json:"paths"`
	// Rules are the ids of the published rules and workflows in scope for
	// Paths when the hook ran, sorted.
	Rules []string `json:"rules"`
	// Hashes are the git blob ids (what `git hash-object` prints) of the
	// files' contents after the change, by path; "" for a file the change
	// deleted. They let a commit be matched to the edit that produced it.
	Hashes map[string]string `json:"hashes,omitempty"`
	// Before are the blob ids before the change, where the hook knew them
	// (the working tree's previous check); "" for a file that did not exist.
	Before map[string]string `json:"before,omitempty"`
	// Unnamed are the paths of Paths that no argument of the tool named:
	// found by the working-tree check (a shell command, a script, another
	// process).
	Unnamed []string `json:"unnamed,omitempty"`
	// Unloaded are the ids of Rules the session had not loaded when the
	// change was recorded: an in-scope change made before loading.
	Unloaded []string `json:"unloaded,omitempty"`
	// Protected are the paths of Paths that are the enforcement's own
	// files: .clumsies/config.toml, the content tree, the hooks' wiring.
	Protected []string `json:"protected,omitempty"`
	// Via is where the change was seen: ViaPostTool (also when empty) or
	// ViaStop.
	Via string `json:"via,omitempty"`
	// ToolUseID and Transcript are the host's own id of the tool call and
	// the path of its transcript, where the host gives them.
	ToolUseID  string `json:"toolUseId,omitempty"`
	Transcript string `json:"transcript,omitempty"`
	// Manual is set when the hook ran outside any host (none of the hosts'
	// variables in its environment): the record is not a host's word.
	Manual bool `json:"manual,omitempty"`
	// Candidates are the other sessions that had a tool call open while
	// the files changed: the change may be theirs.
	Candidates []string `json:"candidates,omitempty"`
	// Republished is set when rules or workflows were published while the
	// tool call ran (a change of the content tree, by anyone): the rules
	// in scope may not be those the gate judged before the call.
	Republished bool `json:"republished,omitempty"`
	// Worktree is the git worktree the change was made in, relative to the
	// workspace root where it lies inside it; empty for the workspace
	// itself. Paths are relative to the worktree's root.
	Worktree string `json:"worktree,omitempty"`
}
