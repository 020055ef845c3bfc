package hooks

import "github.com/clumsies/clumsies/workspace"

// wrongEnforce is what the agent and the user are told when the [enforce]
// table of config.toml is wrong and the gate holds edits in the strictest
// mode it could have meant (workspace.TableWrong): which file and
// setting, how to fix it, and, in block mode, that a person fixes it
// outside the agent, since the gate keeps agents from changing that file.
// "" when the table is right.
func wrongEnforce(ws *workspace.Workspace) string {
	w, ok := ws.Config.EnforceWrong()
	if !ok {
		return ""
	}
	if w.Held == workspace.EnforceBlock {
		return "clumsies: " + w.String() + ". Tell the user: a person fixes that file outside the agent; an agent cannot change it. "
	}
	return "clumsies: " + w.String() + ". Tell the user, so that they fix it. "
}
