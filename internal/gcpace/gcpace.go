package gcpace

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// A bulk job allocates at a high rate while what it keeps (the read
// models it builds) grows slowly: at the default GOGC=100 the collector
// runs every time the heap doubles what is live, which in a rebuild of a
// million events took a quarter of the process's CPU. During a bulk job
// the collector runs at BulkPercent instead, and the soft memory limit is
// what was live when the job started plus BulkHeadroom (or the process's
// own limit, if higher): once the heap reaches it, the collector works
// harder rather than let it grow further.
const (
	BulkPercent  = 400
	BulkHeadroom = 512 << 20
)

var (
	mu sync.Mutex
	// jobs is the number of bulk jobs running.
	jobs int
	// While a bulk job runs: whether it paces the collector's percentage
	// and the memory limit (not when the user set them), and the
	// process's own settings that the last job's end restores.
	pacedPercent, pacedLimit bool
	percent                  int
	limit                    int64
)

// SetPercent sets the collector's target percentage, as
// debug.SetGCPercent does, and returns the previous setting of the
// process. While a bulk job runs, it takes effect when the last one ends.
func SetPercent(p int) int {
	mu.Lock()
	defer mu.Unlock()
	if jobs > 0 && pacedPercent {
		old := percent
		percent = p
		return old
	}
	return debug.SetGCPercent(p)
}

// SetLimit sets the soft memory limit, as debug.SetMemoryLimit does (a
// negative limit only reads it), and returns the previous setting of the
// process. While a bulk job runs, it takes effect when the last one ends.
func SetLimit(l int64) int64 {
	mu.Lock()
	defer mu.Unlock()
	if jobs > 0 && pacedLimit {
		old := limit
		if l >= 0 {
			limit = l
		}
		return old
	}
	return debug.SetMemoryLimit(l)
}

// Bulk paces the collector for a bulk job (BulkPercent, and a limit of
// BulkHeadroom over the heap live now) until end is called; jobs may
// overlap, and the last to end restores the process's own setting. A
// setting the user made in the environment (GOGC, GOMEMLIMIT) is left
// alone.
func Bulk() (end func()) {
	mu.Lock()
	defer mu.Unlock()
	if jobs == 0 {
		pacedPercent = os.Getenv("GOGC") == ""
		if pacedPercent {
			percent = debug.SetGCPercent(BulkPercent)
		}
		pacedLimit = os.Getenv("GOMEMLIMIT") == ""
		if pacedLimit {
			limit = debug.SetMemoryLimit(-1)
			debug.SetMemoryLimit(bulkLimit(limit))
		}
	}
	jobs++
	var once sync.Once
	return func() { once.Do(endBulk) }
}

func endBulk() {
	mu.Lock()
	defer mu.Unlock()
	if jobs--; jobs > 0 {
		return
	}
	if pacedPercent {
		debug.SetGCPercent(percent)
	}
	if pacedLimit {
		debug.SetMemoryLimit(limit)
	}
}

// bulkLimit returns the soft memory limit of a bulk job: BulkHeadroom
// over the heap live at the end of the last collection, or own, the
// process's limit, if that is set and higher.
func bulkLimit(own int64) int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	var live int64
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = int64(min(s[0].Value.Uint64(), math.MaxInt64/2))
	}
	guard := live + BulkHeadroom
	if own != math.MaxInt64 {
		guard = max(guard, own)
	}
	return guard
}
