package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// SetHubURL writes url as the hub's leaf URL into the workspace's
// config.toml ([hub] url), keeping the rest of the file as it is, and
// updates w.Config.
func (w *Workspace) SetHubURL(url string) error {
	file := filepath.Join(w.MetaDir(), ConfigName)
	b, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("set the hub url: %w", err)
	}
	lines := strings.Split(string(b), "\n")
	entry := fmt.Sprintf("url = %q", url)
	section, done := "", false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			if section == "hub" && !done {
				lines = append(lines[:i], append([]string{entry}, lines[i:]...)...)
				done = true
				break
			}
			section = strings.Trim(t, "[] ")
			continue
		}
		if section == "hub" && (strings.HasPrefix(t, "url ") || strings.HasPrefix(t, "url=")) {
			lines[i] = entry
			done = true
			break
		}
	}
	if !done {
		if section != "hub" {
			lines = append(lines, "[hub]")
		}
		for len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		lines = append(lines, entry, "")
	}
	text := strings.Join(lines, "\n")
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		return fmt.Errorf("set the hub url: %w", err)
	}
	cfg, err := ReadConfig(tmp)
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("set the hub url: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		return fmt.Errorf("set the hub url: %w", err)
	}
	w.Config = cfg
	return nil
}
