package node_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// A workspace opened again with an unchanged tree publishes nothing and
// reads no content file; an edit that restores the file's modification
// time is still published.
func TestPublish_UnchangedTreeReadsNothing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the scan index compares change times and inodes on Linux only")
	}
	ctx := context.Background()
	ws, _, err := workspace.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const rules = 1000
	past := time.Now().Add(-time.Hour)
	rulePath := func(i int) string {
		return filepath.Join(ws.ContentRoot(), "rules", fmt.Sprintf("g%02d", i%10), fmt.Sprintf("RULE%04d.md", i))
	}
	for i := range rules {
		p := rulePath(i)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("# Rule %04d\n\nBody.\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Every file's times an hour back: out of the racy window, so that
	// the index vouches for them.
	err = filepath.WalkDir(ws.ContentRoot(), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, past, past)
	})
	if err != nil {
		t.Fatal(err)
	}
	// Their change times too must be out of the racy window before the
	// first scan, or the index would not vouch for them at the next.
	time.Sleep(content.RacyWindow + 100*time.Millisecond)

	n := openNode(t, ws)
	evs, err := n.Publish(ctx)
	if err != nil {
		n.Close()
		t.Fatal(err)
	}
	if len(evs) < rules {
		n.Close()
		t.Fatalf("first publish appended %d events, want at least %d", len(evs), rules)
	}
	if read := node.ScanRead(n); read < rules {
		n.Close()
		t.Fatalf("first publish read %d files, want at least %d", read, rules)
	}
	for _, ev := range evs {
		p, err := ev.Payload()
		if d, ok := p.(*events.PublishData); err != nil || ok && d.Body != "" {
			n.Close()
			t.Fatalf("Publish returned an event with its body: %v, %v", p, err)
		}
	}
	n.Close()

	// Opened again: nothing read, nothing published.
	n = openNode(t, ws)
	defer func() { n.Close() }()
	evs, err = n.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 0 || node.ScanRead(n) != 0 {
		t.Fatalf("unchanged tree: published %d events and read %d files, want 0 and 0", len(evs), node.ScanRead(n))
	}

	// Same size, modification time restored: published all the same.
	// (After a tick of the file system's coarse clock, at most 10 ms on
	// Linux, so that the change time moves.)
	time.Sleep(25 * time.Millisecond)
	p := rulePath(123)
	if err := os.WriteFile(p, []byte("# Rule XXXX\n\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, past, past); err != nil {
		t.Fatal(err)
	}
	evs, err = n.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || node.ScanRead(n) != 1 {
		t.Fatalf("one edited file: published %d events and read %d files, want 1 and 1", len(evs), node.ScanRead(n))
	}
	d, err := evs[0].Payload()
	if pd, ok := d.(*events.PublishData); err != nil || !ok || pd.Path != "g03/RULE0123.md" {
		t.Fatalf("published %v, want g03/RULE0123.md", d)
	}
}
