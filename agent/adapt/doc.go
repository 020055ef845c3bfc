// Package adapt owns what clumsies knows of the agent hosts it wires to a
// workspace (Claude Code, Codex, Cursor, Gemini CLI, opencode, GitHub
// Copilot CLI, VS Code, Windsurf): where each keeps its MCP server list
// and its hooks, in which format, what its hooks read on stdin (Input,
// host-neutral: the hooks package never reads a host's format) and what
// they must print on stdout, or exit with (Reply). For `clumsies doctor`
// it also reads back what a host's files hold (HookLines, File.Check),
// builds a hook's input as the host sends it (Probe) and reads a reply as
// the host reads it (Verdict).
//
// Config files are edited in place: a JSON (or JSONC) file is changed only
// at the spans clumsies adds or removes, so a user's keys, comments and
// layout survive byte for byte; a TOML file gets one marked block. Adding
// and then removing gives back the original bytes.
//
// It imports only the standard library and BurntSushi/toml: it knows
// nothing of the ledger or of MCP. cmd/clumsies ties it to them (the
// adapt and hook commands).
package adapt
