package archtest

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Module is the module path of clumsies.
const Module = "github.com/clumsies/clumsies"

// AllowImports fails tb if a non-test Go file in dir imports anything other
// than the standard library and the allowed packages. An allowed path
// matches that package only, as go/build's deps_test states exact edges:
// allowing events does not allow events/natsjs. A path ending in "/..."
// matches the package and every package below it, for a third-party
// module whose packages are all allowed
// ("github.com/nats-io/nats.go/...").
func AllowImports(tb testing.TB, dir string, allowed ...string) {
	tb.Helper()
	for _, imp := range Imports(tb, dir) {
		if isStdlib(imp) || allows(imp, allowed) {
			continue
		}
		tb.Errorf("%s imports %s, which its import rules do not allow (allowed: stdlib, %s)",
			dir, imp, strings.Join(allowed, ", "))
	}
}

// ForbidImports fails tb if a non-test Go file in dir imports a package
// under one of the forbidden import path prefixes (a prefix matches itself
// and everything below it): for a package that may wire most others but
// never reach some directly.
func ForbidImports(tb testing.TB, dir string, forbidden ...string) {
	tb.Helper()
	for _, imp := range Imports(tb, dir) {
		if matchesAny(imp, forbidden) {
			tb.Errorf("%s imports %s, which its import rules forbid (forbidden: %s)", dir, imp, strings.Join(forbidden, ", "))
		}
	}
}

// Imports returns the sorted, distinct imports of the non-test Go files in dir.
func Imports(tb testing.TB, dir string) []string {
	tb.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatalf("read %s: %v", dir, err)
	}
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ImportsOnly)
		if err != nil {
			tb.Fatalf("parse %s: %v", name, err)
		}
		for _, spec := range f.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			seen[p] = true
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func isStdlib(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

// allows reports whether p is one of allowed, or below one that ends in
// "/...".
func allows(p string, allowed []string) bool {
	for _, a := range allowed {
		if tree, ok := strings.CutSuffix(a, "/..."); ok {
			if p == tree || strings.HasPrefix(p, tree+"/") {
				return true
			}
		} else if p == a {
			return true
		}
	}
	return false
}

// matchesAny reports whether p is one of prefixes or below one: a
// forbidden path forbids everything below it too.
func matchesAny(p string, prefixes []string) bool {
	for _, pre := range prefixes {
		if p == pre || strings.HasPrefix(p, pre+"/") {
			return true
		}
	}
	return false
}

// Importers returns the Go files under root, tests included, that import
// path: their paths relative to root, with slashes, sorted. It skips
// testdata, vendor and hidden folders.
func Importers(tb testing.TB, root, path string) []string {
	tb.Helper()
	var out []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return fmt.Errorf("parse %s: %w", p, err)
		}
		for _, spec := range f.Imports {
			if imp, _ := strconv.Unquote(spec.Path.Value); imp == path {
				rel, _ := filepath.Rel(root, p)
				out = append(out, filepath.ToSlash(rel))
				break
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("find the importers of %s: %v", path, err)
	}
	sort.Strings(out)
	return out
}

// ForbidDeps fails tb if the package pkg (a pattern of `go list`, from
// the current folder) links a package under one of the forbidden import
// path prefixes, directly or through any dependency: for what a binary
// must never carry.
func ForbidDeps(tb testing.TB, pkg string, forbidden ...string) {
	tb.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		tb.Fatalf("go list -deps %s: %v", pkg, err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if matchesAny(dep, forbidden) {
			tb.Errorf("%s links %s, which its rules forbid (forbidden: %s)", pkg, dep, strings.Join(forbidden, ", "))
		}
	}
}
