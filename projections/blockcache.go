package projections

import "github.com/cockroachdb/pebble/v2"

// newBlockCache makes pebble's block cache of blockCacheSize, with a
// reference the caller drops (Unref) once the database holds its own.
//
// pebble keeps, with every cache it makes, the text of the stack that
// made it (debug.Stack), for reporting a cache never released. Formatting
// that text reads the name, file and line of every frame from the
// binary's function tables, which a serving process reads nowhere else:
// on serve's stack (some twenty frames, from main through the owner's
// start to pebble.Open) it brought ~0.4 MiB more of the binary into
// serve's resident set (BENCHMARKS.md, "Fewer of the binary's pages at
// serve's start (issue 35)"). The cache is made on a goroutine of its
// own, whose stack is this function's closure and pebble's three frames.
func newBlockCache() *pebble.Cache {
	made := make(chan *pebble.Cache)
	go func() { made <- pebble.NewCache(blockCacheSize) }()
	return <-made
}
