package mcp

import (
	"sync"
	"testing"
	"time"
)

func TestWarmPool_OneWorkerForCallsInTurn(t *testing.T) {
	p := &warmPool{max: 4}
	var sum int
	for i := range 10 {
		p.run(func() { sum += i })
	}
	if sum != 45 {
		t.Fatalf("sum = %d, want 45: not every function ran once", sum)
	}
	if p.n != 1 || len(p.idle) != 1 {
		t.Fatalf("%d workers started, %d idle; want 1 and 1: calls in turn reuse the warm one", p.n, len(p.idle))
	}
}

func TestWarmPool_MostRecentlyUsedFirst(t *testing.T) {
	p := &warmPool{max: 2}
	a, b := p.take(), p.take()
	p.put(a)
	p.put(b)
	if got := p.take(); got != b {
		t.Fatal("took the worker used first; want the one used last, whose stack is warm")
	}
}

func TestWarmPool_BusyRunsOnTheCaller(t *testing.T) {
	p := &warmPool{max: 2}
	release := make(chan struct{})
	var started, done sync.WaitGroup
	for range 2 {
		started.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			p.run(func() { started.Done(); <-release })
		}()
	}
	started.Wait()
	ran := make(chan struct{})
	go func() {
		p.run(func() {})
		close(ran)
	}()
	select {
	case <-ran:
	case <-time.After(10 * time.Second):
		t.Fatal("a call waited for a busy worker; want it run on its own goroutine")
	}
	close(release)
	done.Wait()
	if p.n != 2 {
		t.Fatalf("%d workers started, want at most max (2)", p.n)
	}
}

func TestWarmPool_PanicReachesTheCaller(t *testing.T) {
	p := &warmPool{max: 1}
	got := func() (v any) {
		defer func() { v = recover() }()
		p.run(func() { panic("boom") })
		return nil
	}()
	if got != "boom" {
		t.Fatalf("recovered %v, want the function's panic (boom)", got)
	}
	ran := false
	p.run(func() { ran = true })
	if !ran || p.n != 1 || len(p.idle) != 1 {
		t.Fatalf("after a panic: ran %v, %d workers, %d idle; want the same worker to go on", ran, p.n, len(p.idle))
	}
}
