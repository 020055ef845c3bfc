package mcp

import "sync"

// The SDK runs every request on a goroutine it starts for it, whose stack
// starts at the runtime's starting size (the average of the stacks the
// collector last scanned: a serving process's goroutines are mostly idle
// and shallow, so a few KiB). A tool call goes deeper than that (the SDK's
// middleware, ours, the handler, the read model, the append), and the
// runtime grows a stack by copying it to one twice its size: under a loop
// of memloads, runtime.newstack was half of the handler's own time (a
// memload's handler, the append excluded, 28-31 µs at the median, 15-16 µs
// on a warm stack; 2026-11-29, see BENCHMARKS.md, issue 35).
//
// So the tool handlers run on warm goroutines: a few long-lived ones whose
// stacks have grown once. The collector halves an idle goroutine's stack
// when it uses less than a quarter of it, so the most recently used
// worker is taken first, and only the workers that calls keep busy stay
// warm.

// warmStacks runs the tool handlers of every Server in the process.
var warmStacks = &warmPool{max: 4}

// warmPool runs functions on up to max long-lived goroutines.
type warmPool struct {
	mu   sync.Mutex
	idle []*warmWorker // the last is the most recently used
	n    int           // workers started
	max  int
}

// warmWorker is one goroutine of a warmPool: it runs what comes on in and
// sends what it panicked with (nil when it returned) on out.
type warmWorker struct {
	in  chan func()
	out chan any
}

// run calls fn on an idle worker (or a new one, while there are fewer than
// max) and returns when fn has returned; when every worker is busy it
// calls fn on the calling goroutine. A panic in fn is raised again on the
// calling goroutine, with the value it had.
func (p *warmPool) run(fn func()) {
	w := p.take()
	if w == nil {
		fn()
		return
	}
	w.in <- fn
	panicked := <-w.out
	p.put(w)
	if panicked != nil {
		panic(panicked)
	}
}

// take returns the most recently used idle worker, a new one while there
// are fewer than max, or nil.
func (p *warmPool) take() *warmWorker {
	p.mu.Lock()
	defer p.mu.Unlock()
	if k := len(p.idle); k > 0 {
		w := p.idle[k-1]
		p.idle = p.idle[:k-1]
		return w
	}
	if p.n == p.max {
		return nil
	}
	p.n++
	w := &warmWorker{in: make(chan func()), out: make(chan any, 1)}
	go w.work()
	return w
}

// put makes w idle again, once its caller has its result.
func (p *warmPool) put(w *warmWorker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.idle = append(p.idle, w)
}

func (w *warmWorker) work() {
	for fn := range w.in {
		w.out <- recovered(fn)
	}
}

// recovered calls fn and returns what it panicked with, or nil (since Go 1.21
// panic(nil) panics with a *runtime.PanicNilError, so nil means none).
func recovered(fn func()) (panicked any) {
	defer func() { panicked = recover() }()
	fn()
	return nil
}
