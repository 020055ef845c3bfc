package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
)

// ldVersion, when set at build time (-ldflags "-X main.ldVersion=v1.2.3"),
// is the version reported instead of the module's.
var ldVersion string

// buildInfo is what `clumsies version` reports.
type buildInfo struct {
	Version  string `json:"version"`            // the module version, or ldVersion
	Revision string `json:"revision,omitempty"` // the VCS commit built, when known
	Time     string `json:"time,omitempty"`     // the commit's time, when known
	Modified bool   `json:"modified"`           // the working tree had uncommitted changes
	Go       string `json:"go"`                 // the Go release that built it
}

// readBuildInfo returns the version from the build: the module version Go
// stamps (a tag, or a pseudo-version from the commit) and the VCS
// revision, time and modified flag.
func readBuildInfo() buildInfo {
	b := buildInfo{Version: "(unknown)", Go: runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if ok {
		if v := info.Main.Version; v != "" {
			b.Version = v
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Revision = s.Value
			case "vcs.time":
				b.Time = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if ldVersion != "" {
		b.Version = ldVersion
	}
	return b
}

// String is the one-line form: "v0.0.0-... (commit 96224ef6e9a1, modified)".
func (b buildInfo) String() string {
	s := b.Version
	if b.Revision != "" {
		rev := b.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += " (commit " + rev
		if b.Modified {
			s += ", modified"
		}
		s += ")"
	}
	return s
}

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
