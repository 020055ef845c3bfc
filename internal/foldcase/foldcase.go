package foldcase

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// Case is one fold case: its file, named without folder and extension.
type Case struct {
	Name    string
	File    string
	Archive *txtar.Archive
}

// Read returns every case of dir (its *.txtar files), failing tb if
// there is none.
func Read(tb testing.TB, dir string) []Case {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no fold cases in %s: %v", dir, err)
	}
	out := make([]Case, 0, len(files))
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, Case{Name: strings.TrimSuffix(filepath.Base(file), ".txtar"), File: file, Archive: ar})
	}
	return out
}

// Section returns the section name of c, failing tb if it has none.
func (c Case) Section(tb testing.TB, name string) string {
	tb.Helper()
	for _, f := range c.Archive.Files {
		if f.Name == name {
			return string(f.Data)
		}
	}
	tb.Fatalf("%s: no section %q", c.File, name)
	return ""
}

// Rewrite sets the section name of c to data (adding it if missing) and
// writes the file again.
func (c Case) Rewrite(tb testing.TB, name, data string) {
	tb.Helper()
	set := false
	for i := range c.Archive.Files {
		if c.Archive.Files[i].Name == name {
			c.Archive.Files[i].Data, set = []byte(data), true
		}
	}
	if !set {
		c.Archive.Files = append(c.Archive.Files, txtar.File{Name: name, Data: []byte(data)})
	}
	if err := os.WriteFile(c.File, txtar.Format(c.Archive), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// Lines decodes the JSON lines of c's events section into values of T,
// in order, leaving out blank lines and # comments. A field T does not
// have fails tb, naming the line.
func Lines[T any](tb testing.TB, c Case) []T {
	tb.Helper()
	var out []T
	for n, line := range strings.Split(c.Section(tb, "events"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var v T
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			tb.Fatalf("%s: events line %d: %v", c.File, n+1, err)
		}
		out = append(out, v)
	}
	return out
}

// Want checks got, what the read models answer after c's events, against
// c's want section, or with update rewrites the section to got.
func (c Case) Want(tb testing.TB, got string, update bool) {
	tb.Helper()
	if update {
		c.Rewrite(tb, "want", got)
		return
	}
	if want := c.Section(tb, "want"); got != want {
		tb.Errorf("read models of %s:\ngot:\n%s\nwant:\n%s", c.File, got, want)
	}
}

// JSON renders v as indented JSON, as the want sections hold it.
func JSON(tb testing.TB, v any) string {
	tb.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		tb.Fatal(err)
	}
	return buf.String()
}
