package workspace

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/clumsies/clumsies/events"
)

// ConfigName is the config file inside .clumsies/.
const ConfigName = "config.toml"

// DefaultContent is the content root when the config names none: the
// .clumsies folder itself.
const DefaultContent = DirName

// Config is .clumsies/config.toml.
type Config struct {
	// WorkspaceID is assigned once by init and is part of every subject.
	WorkspaceID string `toml:"workspace_id"`
	// Name is the workspace's name for people (name.go); empty means the
	// folder's name.
	Name string `toml:"name"`
	// Content is the content root, relative to the workspace folder.
	Content string `toml:"content"`
	// RecordPrompts makes the user-prompt hook keep the text of each prompt
	// in the ledger; by default it keeps only its hash and length, since
	// prompts may hold secrets.
	RecordPrompts bool `toml:"record_prompts"`
	// MaxStore is the most disk space the event store may use ("64GiB");
	// empty means the built-in default. Appends past it fail.
	MaxStore string `toml:"max_store"`
	// ReadOnly makes every `clumsies serve` of the workspace read-only, as
	// `serve --read-only` does: agents cannot stage drafts and serve does
	// not publish the content tree.
	ReadOnly bool `toml:"read_only"`
	// Hub holds the optional hub connection.
	Hub HubConfig `toml:"hub"`
	// Enforce is the pre-tool gate's [enforce] table (enforce.go).
	Enforce EnforceConfig `toml:"enforce"`
	// OTel is the optional OpenTelemetry export's [otel] table (otel.go).
	OTel OTelConfig `toml:"otel"`
	// Wrong lists the optional tables that are wrong (optional.go): a
	// wrong [otel] is unset above, a wrong [enforce] holds the gate in the
	// strictest mode it could have meant.
	Wrong []TableWrong `toml:"-"`
}

// HubConfig is the [hub] table.
type HubConfig struct {
	URL string `toml:"url"`
}

// StoreLimit returns MaxStore in bytes, or 0 when it is not set. ReadConfig
// has checked it.
func (cfg Config) StoreLimit() int64 {
	if cfg.MaxStore == "" {
		return 0
	}
	n, _ := ParseSize(cfg.MaxStore)
	return n
}

// NewWorkspaceID returns a fresh id of the form ws-<32 lowercase hex>.
func NewWorkspaceID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "ws-" + hex.EncodeToString(b[:])
}

// ReadConfig reads and checks a config file. Errors name the file and say
// what to fix. A wrong optional table ([enforce], [otel]) is no error: it
// is listed in Config.Wrong, [otel] turned off, [enforce] held closed.
func ReadConfig(file string) (Config, error) {
	var f configFile
	md, err := toml.DecodeFile(file, &f)
	cfg := f.Config
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return cfg, err
		}
		return cfg, fmt.Errorf("read %s: %w; fix the file or move it away and run `clumsies init`", file, err)
	}
	optionalTables(&md, f, &cfg)
	if k := undecodedOutside(&md); k != "" {
		return cfg, fmt.Errorf("read %s: unknown setting %q", file, k)
	}
	if !events.ValidWorkspaceID(cfg.WorkspaceID) {
		return cfg, fmt.Errorf("read %s: workspace_id %q is not of the form ws-<lowercase hex>", file, cfg.WorkspaceID)
	}
	if err := checkName(cfg.Name); err != nil {
		return cfg, fmt.Errorf("read %s: %w", file, err)
	}
	if cfg.Content == "" {
		cfg.Content = DefaultContent
	}
	if cfg.MaxStore != "" {
		if _, err := ParseSize(cfg.MaxStore); err != nil {
			return cfg, fmt.Errorf("read %s: max_store: %w", file, err)
		}
	}
	if !insideWorkspace(cfg.Content) {
		return cfg, fmt.Errorf("read %s: content %q points outside the workspace; give a folder relative to the workspace, like %q", file, cfg.Content, DefaultContent)
	}
	return cfg, nil
}

// Encode renders cfg as the commented TOML that init writes.
func (cfg Config) Encode() []byte {
	var b bytes.Buffer
	b.WriteString("# clumsies workspace settings. Commit this file.\n")
	b.WriteString("# workspace_id is part of every event subject: never change it by hand.\n")
	fmt.Fprintf(&b, "workspace_id = %q\n", cfg.WorkspaceID)
	b.WriteString("# The workspace's name, shown by stats, the dashboard and the hub: edit it freely.\n")
	if cfg.Name != "" {
		fmt.Fprintf(&b, "name = %q\n", cfg.Name)
	} else {
		b.WriteString("# name = \"my-project\"\n")
	}
	b.WriteString("# The folder holding META_PROMPT.md, rules/ and context/, relative to the workspace.\n")
	fmt.Fprintf(&b, "content = %q\n", cfg.Content)
	b.WriteString("# Keep the text of each user prompt in the ledger (clumsies hook user-prompt).\n")
	b.WriteString("# Off by default: prompts may hold secrets; the hash and length are always kept.\n")
	fmt.Fprintf(&b, "record_prompts = %t\n", cfg.RecordPrompts)
	b.WriteString("# The most disk space the event store may use (like \"64GiB\"); unset means 256GiB.\n")
	if cfg.MaxStore != "" {
		fmt.Fprintf(&b, "max_store = %q\n", cfg.MaxStore)
	} else {
		b.WriteString("# max_store = \"256GiB\"\n")
	}
	b.WriteString("# Serve read-only (like serve --read-only): agents cannot stage drafts, serve publishes nothing.\n")
	fmt.Fprintf(&b, "read_only = %t\n", cfg.ReadOnly)
	b.WriteString("\n# [enforce]  # the pre-tool gate (docs/rules.md); a mistake in it fails closed: edits are held until it is fixed\n")
	b.WriteString("# mode = \"warn\"  # \"off\" (the default), \"warn\" or \"block\"\n")
	b.WriteString("# fail = \"open\"  # \"open\" (the default) or \"closed\": what block does when the gate cannot check\n")
	b.WriteString("\n# [otel]  # OpenTelemetry export of a span per tool call (docs/dashboard.md, Telemetry)\n")
	b.WriteString("# endpoint = \"http://localhost:4318\"  # http:// or https://\n")
	b.WriteString("# protocol = \"http\"  # \"http\" (port 4318, the default) or \"grpc\" (port 4317)\n")
	b.WriteString("\n[hub]\n# url = \"nats-leaf://hub.example:7422\"\n")
	if cfg.Hub.URL != "" {
		fmt.Fprintf(&b, "url = %q\n", cfg.Hub.URL)
	}
	return b.Bytes()
}

// insideWorkspace reports whether a content setting names a folder inside
// the workspace: relative (no leading slash, no drive letter, no UNC
// prefix) and not climbing out with "..".
func insideWorkspace(content string) bool {
	slashed := strings.ReplaceAll(content, `\`, "/")
	if strings.HasPrefix(slashed, "/") || filepath.IsAbs(content) || filepath.VolumeName(content) != "" ||
		len(slashed) >= 2 && slashed[1] == ':' {
		return false
	}
	c := path.Clean(slashed)
	return c != ".." && !strings.HasPrefix(c, "../")
}
