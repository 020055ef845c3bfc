package mcp

import (
	"bytes"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// changed returns a copy of r with its field path (a field of the
// result, or of its first item when item is set) set to another value.
func changed(tb testing.TB, r discoverResult, field int, item bool) discoverResult {
	tb.Helper()
	c := r
	c.Items = make([]discoverItem, len(r.Items))
	copy(c.Items, r.Items)
	v := reflect.ValueOf(&c).Elem()
	if item {
		v = v.Field(0).Index(0)
	}
	f := v.Field(field)
	switch f.Kind() {
	case reflect.String:
		f.SetString(f.String() + "+")
	case reflect.Bool:
		f.SetBool(!f.Bool())
	case reflect.Int:
		f.SetInt(f.Int() + 1)
	case reflect.Uint64:
		f.SetUint(f.Uint() + 1)
	case reflect.Pointer:
		n := 7
		f.Set(reflect.ValueOf(&n))
	case reflect.Slice:
		if item {
			f.Set(reflect.Append(f, reflect.ValueOf("more")))
		} else {
			f.Set(reflect.ValueOf(append(r.Items[:1:1], r.Items...)))
		}
	default:
		tb.Fatalf("field %s of kind %s: the test does not change it", v.Type().Field(field).Name, f.Kind())
	}
	return c
}

// TestDiscCache_EveryFieldCounts checks that a change of any field of a
// memdisc answer, or of any of its items, makes another answer, encoded
// anew (the cache compares them field by field), and that an equal answer
// gets the bytes encoded before.
func TestDiscCache_EveryFieldCounts(t *testing.T) {
	base := discoverSamples("x")[3]
	var c discCache
	first := c.answer(&base)
	same := base
	same.Items = append([]discoverItem(nil), base.Items...)
	if again := c.answer(&same); again != first {
		t.Fatal("an equal answer was encoded again")
	}
	for _, item := range []bool{false, true} {
		typ := reflect.TypeOf(base)
		if item {
			typ = reflect.TypeOf(base.Items[0])
		}
		for i := range typ.NumField() {
			other := changed(t, base, i, item)
			if base.equal(&other) || other.equal(&base) {
				t.Fatalf("a change of %s (item %v) left the answer equal", typ.Field(i).Name, item)
			}
			got := c.answer(&other)
			if bytes.Equal(got.body, first.body) && bytes.Equal(got.text, first.text) {
				t.Fatalf("a change of %s (item %v) gave the cached bytes", typ.Field(i).Name, item)
			}
			if want := other.appendJSON(nil); !bytes.Equal(got.body, want) {
				t.Fatalf("a change of %s (item %v):\n got %s\nwant %s", typ.Field(i).Name, item, got.body, want)
			}
		}
	}
	if len(c.entries) != discCacheSize {
		t.Fatalf("%d answers kept, want %d", len(c.entries), discCacheSize)
	}
}

// TestMemdisc_CachedAnswerFollowsCatalog checks that memdisc answers
// from the cache only while the catalog shows the same: a published edit,
// a new rule and a draft each show in the next answer.
func TestMemdisc_CachedAnswerFollowsCatalog(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.append(events.TypeCatalogPublish, events.PublishData{ID: objectID("rule", "go/ERRORS.md"), Kind: "rule", Path: "go/ERRORS.md", Name: "ERRORS",
		Group: "go", Hash: "sha256:00", Body: "# Errors\n", Description: "Wrap errors."})
	c := e.connect()
	setup(t, c, "cache")
	disc := func() string {
		t.Helper()
		return jsonOf(t, mustOK(t, c, "memdisc", map[string]any{}))
	}
	first := disc()
	if again := disc(); again != first || len(e.srv.discCache.entries) != 1 {
		t.Fatalf("the same memdisc twice:\n%s\n%s\nwith %d answers kept, want the same answer, kept once", first, again, len(e.srv.discCache.entries))
	}
	e.append(events.TypeCatalogPublish, events.PublishData{ID: objectID("rule", "go/ERRORS.md"), Kind: "rule", Path: "go/ERRORS.md", Name: "ERRORS",
		Group: "go", Hash: "sha256:01", Body: "# Errors\n", Description: "Wrap errors with context."})
	if got := disc(); !strings.Contains(got, "Wrap errors with context.") || !strings.Contains(got, "sha256:01") {
		t.Fatalf("after an edit was published, memdisc answered\n%s", got)
	}
	e.publish("rules/go/TESTS.md", "# Tests\n\nTable tests.\n")
	if got := disc(); !strings.Contains(got, "go/TESTS.md") {
		t.Fatalf("after a rule was published, memdisc answered\n%s", got)
	}
	mustOK(t, c, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"create": map[string]any{"path": "go/NEW", "body": "# New\n\nA new rule.\n"}}})
	if got := disc(); !strings.Contains(got, "go/NEW.md") || !strings.Contains(got, `"tmp-`) {
		t.Fatalf("after a draft was made, memdisc answered\n%s", got)
	}
}

// TestDiscCache_ItemsGivenBack checks that the items of a result equal to
// an answer kept are given back for the next result: building and
// answering the same 50 items again allocates no slice of items (13 KiB).
func TestDiscCache_ItemsGivenBack(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops what it is given at random")
	}
	want := leanAnswer(50)
	var c discCache
	build := func() *discoverResult {
		r := &discoverResult{Items: newDiscItems(len(want.Items)), Total: want.Total}
		r.Items = append(r.Items, want.Items...)
		return r
	}
	c.answer(build())
	const n = 100
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		if e := c.answer(build()); e != c.entries[0] || len(c.entries) != 1 {
			t.Fatal("an equal answer was encoded again")
		}
	}
	runtime.ReadMemStats(&after)
	// What is left: the result and the slice's header given back.
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 1024 {
		t.Fatalf("answering an equal result allocated %d bytes, want at most 1 KiB", per)
	}
}
