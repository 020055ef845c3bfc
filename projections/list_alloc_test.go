package projections_test

import (
	"fmt"
	"runtime"
	"testing"
	"unsafe"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// TestStore_ListAllocatesTheItemsOnce checks that a query's List
// allocates its items about once: the answer is made with room for every
// hit, not grown item by item (memdisc asks it on every call, and 50
// hits grown were 2.5 times their size in garbage).
func TestStore_ListAllocatesTheItemsOnce(t *testing.T) {
	const rules, every = 1000, 20
	l, s := newLedger(t), openMem(t)
	for i := range rules {
		tag := ""
		if i%every == 0 {
			tag = " audited"
		}
		path, body := fmt.Sprintf("g%02d/RULE%04d.md", i%100, i), fmt.Sprintf("# Rule %d\n\nConcern %d%s.\n", i, i, tag)
		apply(t, s, l.add(events.TypeCatalogPublish, events.PublishData{ID: fmt.Sprintf("p-%032x", i), Kind: string(content.KindRule), Path: path,
			Name: content.NameOf(path), Group: content.GroupOf(path), Hash: content.Hash([]byte(body)), Body: body, Description: fmt.Sprintf("Concern %d%s.", i, tag)}))
	}
	f := projections.Filter{Query: "audited"}
	if got := len(mustList(t, s, f)); got != rules/every {
		t.Fatalf("the query found %d items, want %d", got, rules/every)
	}
	const calls = 50
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range calls {
		mustList(t, s, f)
	}
	runtime.ReadMemStats(&after)
	perCall := (after.TotalAlloc - before.TotalAlloc) / calls
	items := uint64(rules/every) * uint64(unsafe.Sizeof(projections.Item{}))
	if perCall > items*3/2 {
		t.Fatalf("List allocated %d bytes a call for %d items of %d bytes (%d): want at most 1.5 times the items", perCall, rules/every, unsafe.Sizeof(projections.Item{}), items)
	}
	t.Logf("List allocated %d bytes a call; its %d items are %d", perCall, rules/every, items)
}
