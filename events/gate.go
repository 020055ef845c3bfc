package events

// TypeToolGated is written by the pre-tool hook (clumsies hook pre-tool)
// when the workspace's gate ([enforce] mode warn or block) spoke up on a
// tool about to change files: rules in scope for them were not loaded in
// the session, the tool would change the enforcement's own files, or the
// gate could not check. Like the other hook events, it is not a tool call.
const TypeToolGated Type = "attest.tool_gated"

// Gate decisions, as attest.tool_gated records them.
const (
	GateDeny  = "deny"  // the tool was refused (mode block)
	GateWarn  = "warn"  // the tool ran; the agent was told what to load (mode warn)
	GateAllow = "allow" // the tool ran unchecked: the check could not be made ([enforce] fail = "open")
)

// ToolGatedData is the payload of attest.tool_gated.
type ToolGatedData struct {
	Host string `json:"host"`
	// Tool is the host's name of the tool (Write, Edit, write_file, Bash, ...).
	Tool string `json:"tool"`
	// Paths are the files the tool was about to change, workspace-relative.
	Paths []string `json:"paths"`
	// Decision is GateDeny, GateWarn or GateAllow.
	Decision string `json:"decision"`
	// Missing are the ids of the rules and workflows in scope for the
	// paths that the session had not loaded: the memload the gate asked for.
	Missing []string `json:"missing"`
	// Protected are the paths of Paths that are the enforcement's own
	// files (config.toml, the content tree, the hooks' wiring): an agent
	// proposes changes to them with artifact.
	Protected []string `json:"protected,omitempty"`
	// Shell is set when Paths were read from a shell command's writes.
	Shell bool `json:"shell,omitempty"`
	// Unchecked says why the gate could not check, when it could not.
	Unchecked string `json:"unchecked,omitempty"`
	// ToolUseID is the host's own id of the tool call, where it gives one.
	ToolUseID string `json:"toolUseId,omitempty"`
	// Worktree is the git worktree the tool ran in, as attest.file_edit's.
	Worktree string `json:"worktree,omitempty"`
}
