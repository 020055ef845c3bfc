package events

// TypeToolGated is written by the pre-tool hook (clumsies hook pre-tool)
// when the workspace's gate ([enforce] mode warn or block) spoke up on a
// tool about to change files: rules in scope for them were not loaded in
// the session. Like the other hook events, it is not a tool call.
const TypeToolGated Type = "attest.tool_gated"

// Gate decisions, as attest.tool_gated records them.
const (
	GateDeny = "deny" // the tool was refused (mode block)
	GateWarn = "warn" // the tool ran; the agent was told what to load (mode warn)
)

// ToolGatedData is the payload of attest.tool_gated.
type ToolGatedData struct {
	Host string `json:"host"`
	// Tool is the host's name of the tool (Write, Edit, write_file, ...).
	Tool string `json:"tool"`
	// Paths are the files the tool was about to change, workspace-relative.
	Paths []string `json:"paths"`
	// Decision is GateDeny or GateWarn.
	Decision string `json:"decision"`
	// Missing are the ids of the rules and workflows in scope for the
	// paths that the session had not loaded: the memload the gate asked for.
	Missing []string `json:"missing"`
}
