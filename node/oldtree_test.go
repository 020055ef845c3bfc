package node_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/workspace"
)

// oldTree is a new workspace whose content files (its rules and what init
// wrote) all have their times an hour back, out of the racy window of the
// publish scan's index, so that the index can vouch for them.
type oldTree struct {
	t    *testing.T
	ws   *workspace.Workspace
	past time.Time
}

// newOldTree makes an oldTree with rules rules, and waits until their
// change times, which cannot be set back, are out of the racy window too.
// It skips the test where the index cannot vouch for files.
func newOldTree(t *testing.T, rules int) *oldTree {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the scan index compares change times and inodes on Linux only")
	}
	ws, _, err := workspace.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	o := &oldTree{t: t, ws: ws, past: time.Now().Add(-time.Hour)}
	for i := range rules {
		o.write(i, fmt.Sprintf("# Rule %04d\n\nBody.\n", i))
	}
	err = filepath.WalkDir(ws.ContentRoot(), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, o.past, o.past)
	})
	if err != nil {
		t.Fatal(err)
	}
	o.settle()
	return o
}

// path returns the file of rule i; its public path is
// "g<i%10>/RULE<i>.md", both numbers zero-padded.
func (o *oldTree) path(i int) string {
	return filepath.Join(o.ws.ContentRoot(), "rules", fmt.Sprintf("g%02d", i%10), fmt.Sprintf("RULE%04d.md", i))
}

// write writes rule i and sets its modification time an hour back.
func (o *oldTree) write(i int, body string) {
	o.t.Helper()
	p := o.path(i)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		o.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		o.t.Fatal(err)
	}
	if err := os.Chtimes(p, o.past, o.past); err != nil {
		o.t.Fatal(err)
	}
}

// settle waits until every change time so far is out of the racy window
// of a scan that begins after it.
func (o *oldTree) settle() { time.Sleep(content.RacyWindow + 100*time.Millisecond) }
