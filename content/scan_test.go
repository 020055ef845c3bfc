package content

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFiles creates the files under root, keyed by slash separated paths.
func writeFiles(tb testing.TB, root string, files map[string]string) {
	tb.Helper()
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// symlink creates a symlink at root/rel pointing to target, or skips the
// test where the platform does not allow it.
func symlink(tb testing.TB, target, root, rel string) {
	tb.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		tb.Skipf("symlinks not available: %v", err)
	}
}

// file builds the expected File for a source path and body.
func file(tb testing.TB, source, body string) File {
	tb.Helper()
	kind, public, ok := Classify(source)
	if !ok {
		tb.Fatalf("Classify(%q): got not content, want content", source)
	}
	return File{
		Source: source, Kind: kind, Path: public, Name: NameOf(public), Group: GroupOf(public),
		Body: body, Hash: Hash([]byte(body)),
	}
}

// sources lists the source paths of files for failure messages.
func sources(files []File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Source
	}
	return out
}

// scanErr runs Scan on root and checks that it fails with a *FileError for
// path that wraps target.
func scanErr(tb testing.TB, root, path string, target error) {
	tb.Helper()
	files, err := Scan(root)
	var fe *FileError
	if !errors.As(err, &fe) || fe.Path != path || !errors.Is(err, target) {
		tb.Fatalf("got %v, %v, want a *FileError for %q wrapping %v", sources(files), err, path, target)
	}
	if files != nil {
		tb.Errorf("got files %v with the error, want none", sources(files))
	}
}

func TestScan(t *testing.T) {
	t.Run("AllKinds", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{
			"META_PROMPT.md":              "# Meta\n",
			"rules/workflow/CODING.md":    "## Steps\n- test\n",
			"rules/workflow/sub/DEEP.md":  "deep",
			"rules/go/STYLE.md":           "gofmt\r\n",
			"rules/TOP.md":                "top",
			"rules/zz/A.md":               "",
			"context/arch/OVERVIEW.md":    "overview",
			"context/README.md":           "readme",
			"config.toml":                 "x = 1",
			".gitignore":                  "state/",
			"README.md":                   "not content",
			"state/events/x.md":           "\xff not read",
			".git/rules/y.md":             "\xff not read",
			"rules/.drafts/z.md":          "\xff not read",
			"rules/.#lock.md":             "\xff not read",
			"rules/notes.txt":             "\xff not read",
			"rules/UPPER.MD":              "\xff not read",
			"context/diagram.png":         "\xff not read",
			"Rules/IGNORED.md":            "\xff not read",
			"other/META_PROMPT.md":        "\xff not read",
			"rules/workflow/META.md.orig": "\xff not read",
		})
		if err := os.MkdirAll(filepath.Join(root, "context", "empty"), 0o755); err != nil {
			t.Fatal(err)
		}
		got, err := Scan(root)
		if err != nil {
			t.Fatalf("got error %v, want nil", err)
		}
		want := []File{
			file(t, "META_PROMPT.md", "# Meta\n"),
			file(t, "rules/TOP.md", "top"),
			file(t, "rules/go/STYLE.md", "gofmt\r\n"),
			file(t, "rules/workflow/CODING.md", "## Steps\n- test\n"),
			file(t, "rules/workflow/sub/DEEP.md", "deep"),
			file(t, "rules/zz/A.md", ""),
			file(t, "context/README.md", "readme"),
			file(t, "context/arch/OVERVIEW.md", "overview"),
		}
		if !slices.Equal(got, want) {
			t.Errorf("got %+v, want %+v", got, want)
		}
	})
	t.Run("Fields", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{
			"META_PROMPT.md":           "m",
			"rules/workflow/CODING.md": "c",
		})
		got, err := Scan(root)
		if err != nil {
			t.Fatal(err)
		}
		want := []File{
			{Source: "META_PROMPT.md", Kind: KindMPF, Path: "META_PROMPT.md", Name: "META_PROMPT", Group: "", Body: "m", Hash: Hash([]byte("m"))},
			{Source: "rules/workflow/CODING.md", Kind: KindWorkflow, Path: "workflow/CODING.md", Name: "CODING", Group: "workflow", Body: "c", Hash: Hash([]byte("c"))},
		}
		if !slices.Equal(got, want) {
			t.Errorf("got %+v, want %+v", got, want)
		}
	})
	t.Run("MissingRoot", func(t *testing.T) {
		got, err := Scan(filepath.Join(t.TempDir(), "nope"))
		if got != nil || err != nil {
			t.Errorf("got %v, %v, want nil, nil", got, err)
		}
	})
	t.Run("MissingRulesAndContext", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{"META_PROMPT.md": "m"})
		got, err := Scan(root)
		if err != nil || !slices.Equal(sources(got), []string{"META_PROMPT.md"}) {
			t.Errorf("got %v, %v, want [META_PROMPT.md], nil", sources(got), err)
		}
	})
	t.Run("RootIsAFile", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "file")
		writeFiles(t, filepath.Dir(root), map[string]string{"file": "x"})
		if got, err := Scan(root); err == nil {
			t.Errorf("got %v, nil, want an error", sources(got))
		}
	})
	t.Run("ErrNotUTF8", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{"rules/ok.md": "ok", "rules/go/bad.md": "caf\xe9"})
		scanErr(t, root, "rules/go/bad.md", ErrNotUTF8)
		_, err := Scan(root)
		if got, want := err.Error(), "rules/go/bad.md: content: not valid UTF-8; save it as UTF-8"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{"context/big.md": strings.Repeat("a", MaxFileSize+1)})
		scanErr(t, root, "context/big.md", ErrTooLarge)
	})
	t.Run("LargestAccepted", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{"context/big.md": strings.Repeat("a", MaxFileSize)})
		got, err := Scan(root)
		if err != nil || len(got) != 1 || len(got[0].Body) != MaxFileSize {
			t.Errorf("got %d files, %v, want one of %d bytes", len(got), err, MaxFileSize)
		}
	})
	t.Run("ErrUnsafeName", func(t *testing.T) {
		for _, tt := range []struct{ name, rel string }{
			{"Backslash", `rules/a\b.md`},
			{"ControlCharacter", "rules/a\x01b.md"},
			{"DELInFolder", "context/dir\x7f/x.md"},
			{"LeadingSpace", "rules/ x.md"},
			{"InvalidUTF8", "rules/caf\xe9.md"},
			{"MetaPromptAsRule", "rules/META_PROMPT.md"},
			{"MetaPromptAsContext", "context/docs/meta_prompt.md"},
			{"TooLong", "rules/" + strings.Repeat("d/", 255) + "x.md"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				root := t.TempDir()
				writeFiles(t, root, map[string]string{tt.rel: "body", "rules/ok.md": "ok"})
				scanErr(t, root, tt.rel, ErrUnsafeName)
			})
		}
	})
	t.Run("UnsafeNameMessage", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{`rules/a\b.md`: "x"})
		_, err := Scan(root)
		if got, want := err.Error(), `"rules/a\\b.md": content: unsafe file name (backslash); rename it`; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("UnsafeNameNotContentIgnored", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{`rules/a\b.txt`: "x", "odd\x01/x.md": "x"})
		if got, err := Scan(root); got != nil || err != nil {
			t.Errorf("got %v, %v, want nil, nil", sources(got), err)
		}
	})
}

func TestScan_Symlinks(t *testing.T) {
	t.Run("FileInsideRootIsRead", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{"context/shared.md": "shared"})
		symlink(t, "../../context/shared.md", root, "rules/go/LINK.md")
		symlink(t, filepath.Join(root, "context", "shared.md"), root, "rules/ABS.md")
		got, err := Scan(root)
		want := []File{
			file(t, "rules/ABS.md", "shared"),
			file(t, "rules/go/LINK.md", "shared"),
			file(t, "context/shared.md", "shared"),
		}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("got %+v, %v, want %+v, nil", got, err, want)
		}
	})
	t.Run("FolderInsideRootIsNotFollowed", func(t *testing.T) {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{"rules/go/STYLE.md": "s"})
		symlink(t, "go", root, "rules/golang")
		symlink(t, "..", root, "rules/loop")
		symlink(t, "rules", root, "context")
		got, err := Scan(root)
		if err != nil || !slices.Equal(sources(got), []string{"rules/go/STYLE.md"}) {
			t.Errorf("got %v, %v, want [rules/go/STYLE.md], nil", sources(got), err)
		}
	})
	t.Run("FileOutsideRoot", func(t *testing.T) {
		outside := t.TempDir()
		writeFiles(t, outside, map[string]string{"secret.md": "secret"})
		root := t.TempDir()
		symlink(t, filepath.Join(outside, "secret.md"), root, "rules/LEAK.md")
		scanErr(t, root, "rules/LEAK.md", ErrOutsideRoot)
	})
	t.Run("MetaPromptOutsideRoot", func(t *testing.T) {
		outside := t.TempDir()
		writeFiles(t, outside, map[string]string{"m.md": "m"})
		root := t.TempDir()
		symlink(t, filepath.Join(outside, "m.md"), root, "META_PROMPT.md")
		scanErr(t, root, "META_PROMPT.md", ErrOutsideRoot)
	})
	t.Run("FolderOutsideRoot", func(t *testing.T) {
		outside := t.TempDir()
		writeFiles(t, outside, map[string]string{"x.md": "x"})
		root := t.TempDir()
		symlink(t, outside, root, "context/shared")
		scanErr(t, root, "context/shared", ErrOutsideRoot)
	})
	t.Run("RulesFolderOutsideRoot", func(t *testing.T) {
		outside := t.TempDir()
		root := t.TempDir()
		symlink(t, outside, root, "rules")
		scanErr(t, root, "rules", ErrOutsideRoot)
	})
	t.Run("NonContentOutsideRootIgnored", func(t *testing.T) {
		outside := t.TempDir()
		writeFiles(t, outside, map[string]string{"logo.png": "png"})
		root := t.TempDir()
		symlink(t, filepath.Join(outside, "logo.png"), root, "context/logo.png")
		symlink(t, outside, root, "state")
		symlink(t, outside, root, "rules/.cache")
		if got, err := Scan(root); got != nil || err != nil {
			t.Errorf("got %v, %v, want nil, nil", sources(got), err)
		}
	})
	t.Run("Broken", func(t *testing.T) {
		root := t.TempDir()
		symlink(t, "nowhere.md", root, "rules/BROKEN.md")
		scanErr(t, root, "rules/BROKEN.md", os.ErrNotExist)
	})
	t.Run("BrokenNotContentIgnored", func(t *testing.T) {
		root := t.TempDir()
		symlink(t, "nowhere", root, "rules/broken.txt")
		if got, err := Scan(root); got != nil || err != nil {
			t.Errorf("got %v, %v, want nil, nil", sources(got), err)
		}
	})
	t.Run("RootIsASymlink", func(t *testing.T) {
		real := t.TempDir()
		writeFiles(t, real, map[string]string{"rules/A.md": "a"})
		symlink(t, "A.md", real, "rules/B.md")
		link := filepath.Join(t.TempDir(), "root")
		symlink(t, real, filepath.Dir(link), "root")
		got, err := Scan(link)
		if err != nil || !slices.Equal(sources(got), []string{"rules/A.md", "rules/B.md"}) {
			t.Errorf("got %v, %v, want [rules/A.md rules/B.md], nil", sources(got), err)
		}
	})
}
