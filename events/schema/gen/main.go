// Command gen writes the JSON Schemas of the ledger (schema.Files) to
// docs/schema, removing schema files that no longer have a source. Run it
// from the module root:
//
//	go run ./events/schema/gen
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/clumsies/clumsies/events/schema"
)

func main() {
	dir := flag.String("dir", filepath.Join("docs", "schema"), "folder to write the schema files to")
	flag.Parse()
	n, err := write(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "wrote %d schema files to %s\n", n, *dir)
}

// write makes dir hold exactly the files of schema.Files and returns how
// many it wrote.
func write(dir string) (int, error) {
	files, err := schema.Files()
	if err != nil {
		return 0, fmt.Errorf("build schemas: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("create %s: %w", dir, err)
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return 0, fmt.Errorf("list %s: %w", dir, err)
	}
	for _, p := range old {
		if _, keep := files[filepath.Base(p)]; !keep {
			if err := os.Remove(p); err != nil {
				return 0, fmt.Errorf("remove stale schema: %w", err)
			}
		}
	}
	for name, b := range files {
		if strings.ContainsAny(name, `/\`) {
			return 0, fmt.Errorf("write schema: bad file name %q", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return 0, fmt.Errorf("write schema: %w", err)
		}
	}
	return len(files), nil
}
