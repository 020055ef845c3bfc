// Package hosts drives the real agent host programs (Claude Code, Gemini
// CLI, Codex, Copilot CLI, opencode), installed from npm at pinned
// versions, in a workspace wired with `clumsies adapt`, against a stand-in
// model server on 127.0.0.1 that speaks the host's model API and follows
// a fixed script: a full non-interactive turn per host, and the gate's
// scenarios in block mode (a shell write, a modify tool, an edit of
// .clumsies/config.toml, a script's write caught at stop; Copilot CLI on
// Claude Code's wiring; a Claude Code subagent in a git worktree). The
// tests run only under `make test-hosts` (CLUMSIES_TEST_HOSTS=1): the
// installs are large, so `make test` skips them.
package hosts
