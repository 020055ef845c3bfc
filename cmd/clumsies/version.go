package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/clumsies/clumsies/internal/buildinfo"
)

// ldVersion, when set at build time (-ldflags "-X main.ldVersion=v1.2.3"),
// is the version reported instead of the module's.
var ldVersion string

// readBuildInfo returns what `clumsies version` reports.
func readBuildInfo() buildinfo.Info { return buildinfo.Read(ldVersion) }

// version is the version the MCP server reports to clients.
func version() string { return readBuildInfo().Version }

// VersionCommand prints the version.
type VersionCommand struct {
	m    *Main
	json bool
}

// Run implements command.
func (c *VersionCommand) Run(_ context.Context, args []string) error {
	fs := c.m.newFlags("version", "version [--json]")
	fs.BoolVar(&c.json, "json", false, "print {version, revision, time, modified, go}")
	if err := parse(fs, args); err != nil {
		return err
	}
	b := readBuildInfo()
	if c.json {
		return json.NewEncoder(c.m.Stdout).Encode(b)
	}
	_, err := fmt.Fprintf(c.m.Stdout, "clumsies %s, built with %s\n", b, b.Go)
	return err
}
