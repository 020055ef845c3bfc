package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/clumsies/clumsies/workspace"
)

// configOff returns, one line each, the optional tables of config.toml
// that are wrong (workspace.TableWrong: [otel] off, [enforce] held), for
// stats, doctor and serve to say.
func configOff(cfg workspace.Config) []string {
	var out []string
	for _, t := range cfg.Wrong {
		out = append(out, t.String())
	}
	return out
}

// warnConfigOff says on w, a line each, which optional tables are wrong.
func warnConfigOff(w io.Writer, cfg workspace.Config) {
	for _, l := range configOff(cfg) {
		fmt.Fprintln(w, "clumsies:", l)
	}
}

// agentNotice is what the MCP server tells the agent, in initialize's
// instructions, when optional tables are wrong: "" when none is.
func agentNotice(cfg workspace.Config) string {
	off := configOff(cfg)
	if len(off) == 0 {
		return ""
	}
	return "This workspace's clumsies settings have a mistake: " +
		strings.Join(off, "; ") + ". Tell the user, so that they fix .clumsies/config.toml."
}
