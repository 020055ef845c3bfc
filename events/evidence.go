package events

// TypeFileEdit is written by the post-tool hook (clumsies hook post-tool)
// for each tool use that changed files: what the host saw the agent do,
// not what the agent says it did.
const TypeFileEdit Type = "attest.file_edit"

// OutsidePath stands in attest.file_edit for every path the tool touched
// outside the workspace: the ledger keeps no path of the user's machine
// beyond the workspace.
const OutsidePath = "(outside)"

// FileEditData is the payload of attest.file_edit. It never holds file
// contents.
type FileEditData struct {
	// Host is the adapter's host name, such as claude-code.
	Host string `json:"host"`
	// Tool is the host's name of the tool that changed the files (Write,
	// replace, apply_patch, ...).
	Tool string `json:"tool"`
	// Paths are the files touched, relative to the workspace root with
	// forward slashes, sorted and each once; OutsidePath for those outside
	// the workspace.
	Paths []string `json:"paths"`
	// Rules are the ids of the published rules and workflows in scope for
	// Paths when the hook ran, sorted.
	Rules []string `json:"rules"`
}
