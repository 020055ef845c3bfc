package adapt

// postToolHooks are the post-tool hooks adapt writes, by host: the event
// name in the host's config and the hook entry, in the host's layout. A
// host that is not here (opencode) records file changes another way (its
// plugin).
var postToolHooks = map[string]func(e Env) (event string, value obj){
	// Claude Code runs PostToolUse hooks for the tools its matcher names.
	"claude-code": func(e Env) (string, obj) {
		return "PostToolUse", obj{{"matcher", "Write|Edit|MultiEdit|NotebookEdit"}, {"hooks", []any{obj{
			{"type", "command"}, {"command", e.hookCommand("claude-code", PostTool)}, {"timeout", 30}}}}}
	},
	// Codex names its patch tool differently across releases (apply_patch,
	// or a shell call of it): no matcher, the hook reads the patch.
	"codex": func(e Env) (string, obj) {
		return "PostToolUse", obj{{"hooks", []any{obj{
			{"type", "command"}, {"command", e.hookCommand("codex", PostTool)}, {"timeout", 30}}}}}
	},
	"gemini-cli": func(e Env) (string, obj) {
		return "AfterTool", obj{{"matcher", "write_file|replace"}, {"hooks", []any{obj{{"name", "clumsies-post-tool"},
			{"type", "command"}, {"command", e.hookCommand("gemini-cli", PostTool)}, {"timeout", 30000}}}}}
	},
	// Copilot CLI runs postToolUse hooks after every tool (camelCase input,
	// toolArgs a JSON string); the hook keeps the file-changing ones.
	"copilot": func(e Env) (string, obj) {
		return "postToolUse", obj{{"type", "command"}, {"bash", e.hookCommand("copilot", PostTool)}, {"timeoutSec", 30}}
	},
	// VS Code runs Claude Code's event names from .github/hooks, with
	// camelCase input.
	"vscode": func(e Env) (string, obj) {
		return "PostToolUse", obj{{"type", "command"}, {"command", e.hookCommand("vscode", PostTool)}, {"timeout", 30}}
	},
	// Cursor runs afterFileEdit after every edit of its agent.
	"cursor": func(e Env) (string, obj) {
		return "afterFileEdit", obj{{"command", e.hookCommand("cursor", PostTool)}}
	},
}

// withPostTool adds host's post-tool hook to the file of p that holds its
// other hooks. Windsurf gets none: adapt wires no hook there.
func withPostTool(host string, e Env, p Plan) Plan {
	hook, ok := postToolHooks[host]
	if !ok {
		return p
	}
	for i, f := range p.Files {
		if !hasHooks(f) {
			continue
		}
		event, value := hook(e)
		f.json = append(f.json, jsonEntry{path: []string{"hooks", event}, value: value, ours: oursFor(host, PostTool)})
		p.Files[i] = f
		return p
	}
	return p
}

// hasHooks reports whether f holds hook entries.
func hasHooks(f File) bool {
	for _, j := range f.json {
		if len(j.path) > 0 && j.path[0] == "hooks" {
			return true
		}
	}
	return false
}
