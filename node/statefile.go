package node

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// readStateFile decodes the JSON file name of the state folder stateDir
// into v; ok is false, and v untouched, when there is none.
func readStateFile(stateDir, name string, v any) (ok bool, err error) {
	b, err := os.ReadFile(filepath.Join(stateDir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("read %s: %w", name, err)
	}
	return true, nil
}

// writeStateFile replaces the file name of the state folder stateDir
// whole with v as JSON, through a temporary file renamed over it.
func writeStateFile(stateDir, name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	path := filepath.Join(stateDir, name)
	if err := os.WriteFile(path+".tmp", append(b, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}
