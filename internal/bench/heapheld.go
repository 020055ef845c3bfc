package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// dedupeIDFuncs are the nats-server functions whose allocations hold a
// stream's de-duplication ids (its Nats-Msg-Id window): the id's string
// and the entries of the map and the slice that order them; heapHeld
// adds each id's own entry (a ddentry), which the caller of
// storeMsgIdLocked allocates on the line of the call. Before that was
// counted the soaks' "heap besides the ids" held those entries (20 MB
// against the ids' 61 MB at the end of a 15-minute soak of 300 ev/s).
var dedupeIDFuncs = []string{
	"github.com/nats-io/nats-server/v2/server.getMsgId",
	"github.com/nats-io/nats-server/v2/server.(*stream).storeMsgIdLocked",
}

// heapHeld sums, in bytes, what a heap profile in Go's text form
// (/debug/pprof/heap?debug=1) says is in use in allocations made by one
// of funcs itself: the first frame it prints for a record, which leaves
// out the runtime's own frames, as `go tool pprof`'s flat column does;
// and those made on the very line that calls one of funcs (the line of
// the caller's frame under it in another record): what the call's own
// arguments allocate there, as nats-server's
// storeMsgIdLocked(&ddentry{...}) does for each id's entry. Each record
// is scaled by its chance of being sampled at the profile's rate, as
// pprof scales the text form.
func heapHeld(profile string, funcs ...string) (int64, error) {
	lines := strings.Split(profile, "\n")
	rate, err := heapRate(lines[0])
	if err != nil {
		return 0, err
	}
	recs := heapRecords(lines)
	calls := map[string]bool{} // file:line of the calls of funcs
	for _, r := range recs {
		if len(r.frames) > 1 && slices.Contains(funcs, r.frames[0].fn) {
			calls[r.frames[1].at] = true
		}
	}
	var held float64
	for _, r := range recs {
		if len(r.frames) > 0 && (slices.Contains(funcs, r.frames[0].fn) || calls[r.frames[0].at]) {
			held += scaleHeap(r.count, r.size, rate)
		}
	}
	return int64(held), nil
}

// heapFrame is one frame of a heap record: its function and its file:line.
type heapFrame struct{ fn, at string }

// heapRec is one record of a text heap profile: the objects and bytes in
// use and its frames, innermost first, without the runtime's own.
type heapRec struct {
	count, size float64
	frames      []heapFrame
}

// heapRecords reads the records of a text heap profile's lines.
func heapRecords(lines []string) []heapRec {
	var out []heapRec
	for i := 1; i < len(lines); i++ {
		count, size, ok := heapRecord(lines[i])
		if !ok {
			continue
		}
		r := heapRec{count: count, size: size}
		for i+1 < len(lines) {
			f := strings.Fields(lines[i+1])
			if len(f) < 3 || f[0] != "#" {
				break
			}
			i++
			fr := heapFrame{fn: strings.SplitN(f[2], "+0x", 2)[0]}
			if len(f) >= 4 {
				fr.at = f[3]
			}
			r.frames = append(r.frames, fr)
		}
		out = append(out, r)
	}
	return out
}

// heapRate reads the sampling rate from a text heap profile's first line,
// "heap profile: N: B [N: B] @ heap/2R", where R is runtime.MemProfileRate.
func heapRate(first string) (float64, error) {
	_, tail, ok := strings.Cut(first, "@ heap/")
	if !strings.HasPrefix(first, "heap profile: ") || !ok {
		return 0, fmt.Errorf("not a heap profile in text form: %q", first)
	}
	r, err := strconv.ParseFloat(strings.TrimSpace(tail), 64)
	if err != nil {
		return 0, fmt.Errorf("the heap profile's rate %q: %w", tail, err)
	}
	return r / 2, nil
}

// heapRecord reads the objects and bytes in use of a record's line,
// "N: B [N: B] @ 0x...".
func heapRecord(line string) (count, size float64, ok bool) {
	head, _, found := strings.Cut(line, " [")
	if !found || !strings.Contains(line, "] @") {
		return 0, 0, false
	}
	c, b, found := strings.Cut(head, ": ")
	if !found {
		return 0, 0, false
	}
	n, err1 := strconv.ParseFloat(c, 64)
	s, err2 := strconv.ParseFloat(b, 64)
	return n, s, err1 == nil && err2 == nil
}

// scaleHeap is the bytes a record stands for: each allocation of the
// record's average size is sampled with probability 1-exp(-size/rate).
func scaleHeap(count, size, rate float64) float64 {
	if count == 0 || size == 0 {
		return 0
	}
	if rate <= 1 {
		return size
	}
	return size / (1 - math.Exp(-size/count/rate))
}
