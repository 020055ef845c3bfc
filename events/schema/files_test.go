package schema_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/schema"
)

// published is where go run ./events/schema/gen writes the schemas,
// relative to this package.
var published = filepath.Join("..", "..", "docs", "schema")

const regenerate = "run `go run ./events/schema/gen` from the module root and commit docs/schema"

func TestFiles_UpToDate(t *testing.T) {
	want, err := schema.Files()
	if err != nil {
		t.Fatalf("Files: %v", err)
	}
	onDisk, err := filepath.Glob(filepath.Join(published, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range onDisk {
		if _, ok := want[filepath.Base(p)]; !ok {
			t.Errorf("%s has no source in the Go types any more: %s", p, regenerate)
		}
	}
	for name, b := range want {
		got, err := os.ReadFile(filepath.Join(published, name))
		if err != nil {
			t.Errorf("read %s: %v; %s", name, err, regenerate)
			continue
		}
		if !bytes.Equal(got, b) {
			t.Errorf("docs/schema/%s differs from the Go types: %s", name, regenerate)
		}
	}
}

func TestFiles_Names(t *testing.T) {
	files, err := schema.Files()
	if err != nil {
		t.Fatalf("Files: %v", err)
	}
	want := []string{schema.EnvelopeFile, schema.FailureFile}
	for _, typ := range events.Types() {
		want = append(want, schema.FileName(typ))
	}
	slices.Sort(want)
	var got []string
	for name := range files {
		got = append(got, name)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("got files %v, want %v", got, want)
	}
}

func TestFiles_Stable(t *testing.T) {
	first, err := schema.Files()
	if err != nil {
		t.Fatalf("Files: %v", err)
	}
	for range 5 {
		again, err := schema.Files()
		if err != nil {
			t.Fatalf("Files: %v", err)
		}
		for name, b := range first {
			if !bytes.Equal(again[name], b) {
				t.Fatalf("%s: got different bytes on a second call, want the same", name)
			}
		}
	}
}

// TestFiles_TitledByType: each payload schema is titled and described by
// its type's row, so a new row needs no other description than its own.
func TestFiles_TitledByType(t *testing.T) {
	files, err := schema.Files()
	if err != nil {
		t.Fatalf("Files: %v", err)
	}
	for _, typ := range events.Types() {
		var head struct{ Title, Description string }
		if err := json.Unmarshal(files[schema.FileName(typ)], &head); err != nil {
			t.Fatalf("%s: %v", schema.FileName(typ), err)
		}
		if want := string(typ) + ": " + typ.Title(); head.Title != want {
			t.Errorf("%s: title %q, want %q", typ, head.Title, want)
		}
		if head.Description != typ.Description() || head.Description == "" {
			t.Errorf("%s: description %q, want %q", typ, head.Description, typ.Description())
		}
	}
}
