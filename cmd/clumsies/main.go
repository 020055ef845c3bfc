// Command clumsies is the MCP server that brings a team's rules, workflows
// and context to coding agents and records which rules they applied.
//
// This binary is the front: it finds clumsies-core (the server and the
// whole command line, cmd/clumsies-core) and execs it with the same
// arguments. For `serve` over stdio it first answers the MCP client's
// initialize itself, from the workspace's META_PROMPT, since it links
// none of the ledger, the read models or NATS and so starts in about the
// time of a bare go-sdk server; the core then opens the workspace while
// the client reads the answer (see internal/front).
package main

import (
	"fmt"
	"os"
)

// ldVersion, when set at build time (-ldflags "-X main.ldVersion=v1.2.3"),
// is the version reported instead of the module's; the Makefile sets it on
// both binaries.
var ldVersion string

func main() {
	core, err := findCore()
	if err != nil {
		fmt.Fprintln(os.Stderr, "clumsies:", err)
		os.Exit(1)
	}
	args := os.Args[1:]
	var handover string
	if s, ok := stdioServe(args); ok {
		handover = s.begin(os.Stdin, os.Stdout)
	}
	err = runCore(core, args, handover)
	fmt.Fprintln(os.Stderr, "clumsies:", err)
	os.Exit(1)
}
