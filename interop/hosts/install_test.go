package hosts

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// npmHost is a host program as npm publishes it, at the version tested
// (docs/adapters.md lists them).
type npmHost struct {
	pkg, version, bin string
}

var (
	claudeCode = npmHost{"@anthropic-ai/claude-code", "2.1.197", "claude"}
	geminiCLI  = npmHost{"@google/gemini-cli", "0.61.0", "gemini"}
	codex      = npmHost{"@openai/codex", "0.171.0", "codex"}
	copilotCLI = npmHost{"@github/copilot", "1.0.102", "copilot"}
	opencode   = npmHost{"opencode-ai", "1.18.33", "opencode"}
)

// cacheDir is where the hosts are installed, one folder per package and
// version, reused when present: $CLUMSIES_HOSTS_CACHE, else
// ~/.cache/clumsies/hosts.
func cacheDir() (string, error) {
	if dir := os.Getenv("CLUMSIES_HOSTS_CACHE"); dir != "" {
		return dir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the user cache folder: %w", err)
	}
	return filepath.Join(dir, "clumsies", "hosts"), nil
}

// install returns the path of h's program, installing h with npm into the
// cache first when it is not there. The install goes to a temporary
// folder renamed into place, so an interrupted one is never reused.
func install(t *testing.T, h npmHost) string {
	t.Helper()
	cache, err := cacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, strings.ReplaceAll(h.pkg, "/", "+")+"@"+h.version)
	bin := filepath.Join(dir, "node_modules", ".bin", h.bin)
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatalf("make the host cache: %v", err)
	}
	tmp, err := os.MkdirTemp(cache, ".install-")
	if err != nil {
		t.Fatalf("make an install folder: %v", err)
	}
	defer os.RemoveAll(tmp)
	t.Logf("installing %s@%s into %s (a large download, once)", h.pkg, h.version, dir)
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", tmp, h.pkg+"@"+h.version)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install %s@%s: %v\n%s", h.pkg, h.version, err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		t.Fatalf("move the install into the cache: %v", err)
	}
	return bin
}
