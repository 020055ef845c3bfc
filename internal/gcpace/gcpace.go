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

// A lean job builds what the process keeps in a process whose peak
// memory matters more than the job's CPU: the first publish of a large
// catalog by a serving process, which ends holding what serving holds.
// Its garbage, not its result, would set the process's peak; during a
// lean job the collector runs at LeanPercent. A bulk job running at the
// same time has its way.
const LeanPercent = 10

var (
	mu sync.Mutex
	// bulks and leans are the numbers of jobs of each kind running.
	bulks, leans int
	// While jobs run: whether they pace the collector's percentage, and
	// bulk jobs the memory limit (not when the user set them), and the
	// process's own settings that the last job's end restores.
	pacedPercent, pacedLimit bool
	percent                  int
	limit                    int64
)

// SetPercent sets the collector's target percentage, as
// debug.SetGCPercent does, and returns the previous setting of the
// process. While a job runs, it takes effect when the last one ends.
func SetPercent(p int) int {
	mu.Lock()
	defer mu.Unlock()
	if bulks+leans > 0 && pacedPercent {
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
	if bulks > 0 && pacedLimit {
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
	begin()
	if bulks == 0 {
		pacedLimit = os.Getenv("GOMEMLIMIT") == ""
		if pacedLimit {
			limit = debug.SetMemoryLimit(-1)
			debug.SetMemoryLimit(bulkLimit(limit))
		}
	}
	bulks++
	pace()
	var once sync.Once
	return func() { once.Do(endBulk) }
}

func endBulk() {
	mu.Lock()
	defer mu.Unlock()
	if bulks--; bulks == 0 && pacedLimit {
		debug.SetMemoryLimit(limit)
	}
	pace()
}

// Lean paces the collector for a lean job (LeanPercent) until end is
// called, as Bulk does for a bulk job; GOGC, when set, is left alone.
func Lean() (end func()) {
	mu.Lock()
	defer mu.Unlock()
	begin()
	leans++
	pace()
	var once sync.Once
	return func() {
		once.Do(func() {
			mu.Lock()
			defer mu.Unlock()
			leans--
			pace()
		})
	}
}

// begin takes note of the process's own percentage when the first job
// starts. mu is held.
func begin() {
	if bulks+leans > 0 {
		return
	}
	pacedPercent = os.Getenv("GOGC") == ""
	if pacedPercent {
		percent = debug.SetGCPercent(100)
		debug.SetGCPercent(percent)
	}
}

// pace sets the percentage of the jobs running, or the process's own
// once none is. mu is held.
func pace() {
	if !pacedPercent {
		return
	}
	switch {
	case bulks > 0:
		debug.SetGCPercent(BulkPercent)
	case leans > 0:
		debug.SetGCPercent(LeanPercent)
	default:
		debug.SetGCPercent(percent)
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
