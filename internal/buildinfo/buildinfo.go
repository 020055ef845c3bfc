// Package buildinfo reads the version the clumsies binary reports: in
// `clumsies version` and in the MCP initialize answer's serverInfo.
package buildinfo

import (
	"runtime"
	"runtime/debug"
)

// Info is what `clumsies version` reports.
type Info struct {
	Version  string `json:"version"`            // the module version, or the one set at link time
	Revision string `json:"revision,omitempty"` // the VCS commit built, when known
	Time     string `json:"time,omitempty"`     // the commit's time, when known
	Modified bool   `json:"modified"`           // the working tree had uncommitted changes
	Go       string `json:"go"`                 // the Go release that built it
}

// Read returns the version from the build: the module version Go stamps
// (a tag, or a pseudo-version from the commit) and the VCS revision, time
// and modified flag. ldVersion, when not empty, is the version set at link
// time (-ldflags "-X main.ldVersion=v1.2.3") and wins.
func Read(ldVersion string) Info {
	b := Info{Version: "(unknown)", Go: runtime.Version()}
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
func (b Info) String() string {
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
