package adapt

// toolHooks are a host's hooks around its tools: the entries run before a
// tool (the gate: PreTool) and after one (PostTool: evidence and the
// working tree's check), the config file they go in, and how the gate
// answers. Each host's file declares its own.
//
// The entries reach the tools that can write and no others, where the
// host can tell them apart (a matcher on the tool's name); a hook that
// runs for another tool reads it and answers neutrally. Their command
// lines are Env.hookCommand's: a machine without clumsies runs them as
// no-ops.
type toolHooks struct {
	// file is the config file the entries go in (scope s); nil when the
	// hooks are not config entries (opencode's plugin runs them).
	file func(s Scope, e Env) string
	// pre and post return the entries of the hooks run before and after
	// a tool.
	pre, post func(e Env) []jsonEntry
	// gate renders the pre-tool answer: a refusal (Block, Reason), a
	// warning (Context) or the neutral answer. nil for a host whose hook
	// before a tool cannot refuse it.
	gate func(a Answer) Reply
}

// wire adds the entries to the plan's file that holds them (scope s),
// or to a new file of the plan.
func (t *toolHooks) wire(p *Plan, s Scope, e Env) {
	if t.file == nil {
		return
	}
	var entries []jsonEntry
	for _, f := range []func(Env) []jsonEntry{t.pre, t.post} {
		if f != nil {
			entries = append(entries, f(e)...)
		}
	}
	path := t.file(s, e)
	for i := range p.Files {
		if p.Files[i].Path == path {
			p.Files[i].json = append(p.Files[i].json, entries...)
			return
		}
	}
	p.Files = append(p.Files, File{Path: path, json: entries})
}

// stdout is a reply that is only an answer on stdout.
func stdout(b []byte) Reply { return Reply{Stdout: b} }

// permissionDecision is the gate's answer of Claude Code, Codex and VS
// Code (hookSpecificOutput): permissionDecision deny with its reason, or
// additionalContext for the agent.
func permissionDecision(a Answer) Reply {
	switch {
	case a.Block:
		return stdout(jsonLine(map[string]any{"hookSpecificOutput": map[string]string{
			"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": a.Reason}}))
	case a.Context != "":
		return stdout(hookSpecific("PreToolUse", a.Context))
	}
	return Reply{}
}
