package main

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestReader_BuildsOutsideTheModule builds main.go as the only file of a
// module of its own, as a reader who copied it would: it needs nothing of
// the clumsies module, which no module proxy serves. (go fetches what the
// module cache lacks, as for any build.)
func TestReader_BuildsOutsideTheModule(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", src, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(p, "github.com/clumsies/") {
			t.Errorf("main.go imports %s: the example must build without the clumsies module", p)
		}
	}

	// The module requires the modules of the packages main.go builds
	// with, at the versions this repository uses: all in the module cache
	// already.
	list, err := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}}{{end}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	dir := t.TempDir()
	mod := "module example.com/reader\n\ngo 1.26\n\nrequire (\n"
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(list)), "\n") {
		if l != "" && !seen[l] {
			seen[l] = true
			mod += "\t" + l + "\n"
		}
	}
	mod += ")\n"
	sum, err := os.ReadFile("../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"go.mod": []byte(mod), "go.sum": sum, "main.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "reader"), ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the example in a module of its own: %v\n%s", err, out)
	}
}

// TestReader_InTheDocs: docs/events.md shows this program as it is.
func TestReader_InTheDocs(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/events.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```go\n"+string(src)+"```\n") {
		t.Error("docs/events.md does not show examples/reader/main.go as it is: copy the file into its Go block")
	}
}
