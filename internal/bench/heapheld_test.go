package main

import (
	"fmt"
	"reflect"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
)

var heldForProfile [][]byte

//go:noinline
func holdForProfile(n, size int) {
	for range n {
		heldForProfile = append(heldForProfile, make([]byte, size))
	}
}

//go:noinline
func holdThroughCaller(n, size int) { holdForProfile(n, size) }

// TestHeapHeld_ReadsTheRuntimesProfile reads what one function holds from
// this process's own heap profile, as a hub serves it: the bytes it
// allocated and keeps, and nothing for the function that called it.
func TestHeapHeld_ReadsTheRuntimesProfile(t *testing.T) {
	defer func(r int) { runtime.MemProfileRate = r }(runtime.MemProfileRate)
	runtime.MemProfileRate = 1
	holdThroughCaller(64, 64<<10)
	defer func() { heldForProfile = nil }()
	runtime.GC()
	var sb strings.Builder
	if err := pprof.Lookup("heap").WriteTo(&sb, 1); err != nil {
		t.Fatal(err)
	}
	name := func(f any) string { return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name() }
	got, err := heapHeld(sb.String(), name(holdForProfile))
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(64 * 64 << 10); got < want || got > want+want/10 {
		t.Errorf("held by holdForProfile = %d bytes, want %d (+10%% at most)", got, want)
	}
	if got, _ := heapHeld(sb.String(), name(holdThroughCaller)); got != 0 {
		t.Errorf("held by its caller = %d bytes, want 0 (only what a function allocates itself)", got)
	}
}

func TestHeapHeld_ScalesBySamplingRate(t *testing.T) {
	// Two records at a rate of 512 KiB (the header gives twice the rate):
	// one object of 512 KiB, sampled with chance 1-1/e, and ten of 64
	// bytes, each sampled with chance about 64/512Ki, under another
	// function.
	p := "heap profile: 11: 524928 [11: 524928] @ heap/1048576\n" +
		"1: 524288 [1: 524288] @ 0x1 0x2\n" +
		"#\t0x1\tgithub.com/nats-io/nats-server/v2/server.getMsgId+0xe4\t/x/stream.go:1\n" +
		"#\t0x2\tgithub.com/nats-io/nats-server/v2/server.(*stream).processJetStreamMsgWithBatch+0x75c7\t/x/stream.go:2\n" +
		"\n" +
		"10: 640 [10: 640] @ 0x3\n" +
		"#\t0x3\tgithub.com/nats-io/nats-server/v2/server.(*stream).storeMsgIdLocked+0x97\t/x/stream.go:3\n" +
		"\n" +
		"0: 0 [5: 320] @ 0x4\n" +
		"#\t0x4\tgithub.com/nats-io/nats-server/v2/server.(*stream).storeMsgIdLocked+0x97\t/x/stream.go:3\n"
	got, err := heapHeld(p, dedupeIDFuncs...)
	if err != nil {
		t.Fatal(err)
	}
	// 524288/(1-e^-1) + 640/(1-e^-(64/524288)), about 829411 + 5243200.
	if want := int64(829411 + 5243200); got < want-2 || got > want+2 {
		t.Errorf("heapHeld = %d, want %d", got, want)
	}
	if got, _ := heapHeld(p, "github.com/nats-io/nats-server/v2/server.(*stream).processJetStreamMsgWithBatch"); got != 0 {
		t.Errorf("a caller's frame counted: %d", got)
	}
	// The caller allocates the id's entry on the line of its call
	// (stream.go:2 above): counted; what it allocates on another line is
	// not.
	const caller = "github.com/nats-io/nats-server/v2/server.(*stream).processJetStreamMsgWithBatch"
	entries := p + "\n" + heapRecordText("10: 320", caller+"+0x75c0", "/x/stream.go:2") +
		"\n" + heapRecordText("10: 320", caller+"+0x1000", "/x/stream.go:9")
	withEntries, err := heapHeld(entries, dedupeIDFuncs...)
	if err != nil {
		t.Fatal(err)
	}
	// 320/(1-e^-(32/524288)), about 5243040.
	if want := got + 5243040; withEntries < want-2 || withEntries > want+2 {
		t.Errorf("heapHeld with the entries made on the line of the call = %d, want %d", withEntries, want)
	}
	if _, err := heapHeld("goroutine profile: total 3\n", dedupeIDFuncs...); err == nil {
		t.Error("a goroutine profile read as a heap profile")
	}
}

// heapRecordText is one record of a text heap profile in use as inuse
// ("objects: bytes"), allocated by fn at file:line at.
func heapRecordText(inuse, fn, at string) string {
	return fmt.Sprintf("%s [%s] @ 0x9\n#\t0x9\t%s\t%s\n", inuse, inuse, fn, at)
}
