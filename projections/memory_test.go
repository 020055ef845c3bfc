package projections_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// TestStore_DraftBodiesStayOnDisk stages 300 drafts of 200 KiB (60 MiB of
// bodies): the store's memory must not grow with them (issue: 1,000 such
// drafts took the owner to 832 MB). Memory is measured after a collection;
// pebble's memtables are bounded whatever the number of drafts.
func TestStore_DraftBodiesStayOnDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 60 MiB")
	}
	l, s := newLedger(t), openAt(t, vfs.Default, t.TempDir(), projections.Options{})
	body := strings.Repeat("<", 200<<10)
	before := heapInUse()
	for i := range 300 {
		apply(t, s, l.add(events.TypeDraftCreate, events.DraftData{
			Resource: "rule", ID: fmt.Sprintf("tmp-rule-%012x", i), Op: events.DraftOpCreate,
			Path: fmt.Sprintf("big/B%d.md", i), Body: body + fmt.Sprint(i)}))
	}
	l = nil // the test's own copy of the events is not the store's memory
	grew := int64(heapInUse()) - int64(before)
	if grew > 40<<20 {
		t.Errorf("memory grew %d MiB with 60 MiB of draft bodies, want them on disk", grew>>20)
	}
	d, err := s.Draft("tmp-rule-00000000012b")
	if err != nil || d.Body != body+"299" {
		t.Fatalf("draft 299: %v, body of %d bytes", err, len(d.Body))
	}
	t.Logf("memory grew %d MiB", grew>>20)
}

func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}
