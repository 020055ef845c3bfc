package projections_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// TestStore_MemTablesOfHalfAMiB: a store that has flushed holds two
// memtables (the one in use and the one pebble keeps for the next), each
// of at most 512 KiB: at 1 MiB they were 1.5 MiB more of a serving
// process's resident memory (BENCHMARKS.md, "Serve's peak under 44.5 MiB:
// pebble's memtables (issue 35)").
func TestStore_MemTablesOfHalfAMiB(t *testing.T) {
	l, s := newLedger(t), openAt(t, vfs.Default, t.TempDir(), projections.Options{})
	body := strings.Repeat("-", 8<<10)
	for i := range 400 {
		apply(t, s, l.add(events.TypeDraftCreate, events.DraftData{
			Resource: "rule", ID: fmt.Sprintf("tmp-rule-%012x", i), Op: events.DraftOpCreate,
			Path: fmt.Sprintf("mem/M%d.md", i), Body: body + fmt.Sprint(i)}))
	}
	bytes, flushes := s.MemTables()
	t.Logf("%d flushes; memtables of %d KiB", flushes, bytes>>10)
	if flushes < 2 {
		t.Fatalf("%d flushes after 3 MiB of rows: the test wants pebble to have flushed and kept a memtable", flushes)
	}
	if bytes > 1<<20 {
		t.Errorf("pebble's memtables hold %d KiB, want at most two of 512 KiB", bytes>>10)
	}
}
