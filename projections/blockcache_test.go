package projections

import (
	"reflect"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// openDeep opens a store n calls deep, as serve opens it some twenty
// frames down from main.
func openDeep(t *testing.T, n int) *Store {
	if n > 0 {
		return openDeep(t, n-1)
	}
	s, err := Open("store", Options{FS: vfs.NewMem()})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestOpen_BlockCacheOnShortStack: pebble keeps the text of the stack
// that made its block cache, and formatting it reads the binary's
// function tables for every frame: the store makes its cache on a
// goroutine of its own, so that none of the caller's frames are in it.
func TestOpen_BlockCacheOnShortStack(t *testing.T) {
	s := openDeep(t, 20)
	defer s.Close()
	// pebble.DB.opts.Cache.stack: unexported, read through reflect (a
	// pebble that moves it fails here, and this test needs to follow).
	opts := reflect.ValueOf(s.db).Elem().FieldByName("opts")
	if !opts.IsValid() || opts.IsNil() {
		t.Fatal("pebble.DB has no field opts: follow pebble's layout here")
	}
	c := opts.Elem().FieldByName("Cache")
	if !c.IsValid() || c.IsNil() {
		t.Fatal("pebble.Options.Cache is not set after Open")
	}
	stack := c.Elem().FieldByName("stack")
	if !stack.IsValid() || stack.Kind() != reflect.String || stack.String() == "" {
		t.Fatal("pebble's cache keeps no stack text in a field stack: follow pebble's layout here, or drop newBlockCache if pebble no longer records it")
	}
	text := stack.String()
	for _, caller := range []string{"openDeep", "testing.tRunner", "projections.Open"} {
		if strings.Contains(text, caller) {
			t.Errorf("pebble's cache was made on the caller's stack (%s is in it):\n%s", caller, text)
		}
	}
	if frames := strings.Count(text, "\n\t"); frames > 6 {
		t.Errorf("the stack pebble keeps with its cache has %d frames, want at most 6:\n%s", frames, text)
	}
}
