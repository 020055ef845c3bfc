package projections_test

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/projections"
)

// TestClose_LeavesNoLogToReplay checks that Close flushes what the store
// wrote, so that the next Open replays no write-ahead log into a memtable
// (which pebble would keep afterwards, filled, for reuse). The store is
// small: without the flush, all its rows stay in the log, and pebble
// opened read-only on it finds no table.
func TestClose_LeavesNoLogToReplay(t *testing.T) {
	fs := vfs.NewMem()
	s, err := projections.Open("/db", projections.Options{FS: fs})
	if err != nil {
		t.Fatal(err)
	}
	l := newLedger(t)
	for i := range 50 {
		apply(t, s, l.publish(ruleID(i), content.KindRule, "rules/g/R"+ruleID(i)+".md", "# R\n\n- do it\n"))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := pebble.Open("/db", &pebble.Options{FS: fs, ReadOnly: true, FormatMajorVersion: pebble.FormatNewest})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := db.Metrics()
	tables := int64(0)
	for _, l := range m.Levels {
		tables += l.TablesCount
	}
	if tables == 0 {
		t.Fatalf("after Close the store's rows are in no table, only in the log the next Open replays")
	}
}

func ruleID(i int) string { return "rule-" + string(rune('a'+i%26)) + string(rune('a'+i/26)) }
