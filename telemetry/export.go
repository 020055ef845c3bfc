package telemetry

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clumsies/clumsies/mcp"
)

// scope names the instrumentation in every export.
const scope = "github.com/clumsies/clumsies/telemetry"

// Exporter exports a span per tool call and the usage counters. It is an
// mcp.CallObserver.
type Exporter struct {
	queue   chan *finished // pointers: a queue of records would hold 320 bytes a slot
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
	dropped atomic.Uint64
	abort   context.CancelFunc // ends an export under way when Shutdown's ctx ends
	err     error              // the last export's error at shutdown, read once done is closed

	// The worker's own, touched by it alone.
	sched    schedule
	resource []attr
	spans    *spanBatch
	in       *instruments
	started  time.Time
	traces   *poster
	metrics  *poster
	mbuf     []byte // the last metrics request, reused
	log      *slog.Logger
}

// finished is a call as the worker gets it.
type finished struct {
	rec mcp.CallRecord
	end time.Time
}

var _ mcp.CallObserver = (*Exporter)(nil)

// Start returns an Exporter sending to the collector o names. It does not
// wait for the collector: an export that fails is logged and dropped,
// and the calls go on.
func Start(ctx context.Context, o Options) (*Exporter, error) {
	if o.Protocol != "" && o.Protocol != ProtocolHTTP {
		return nil, protocolError(o.Protocol)
	}
	if o.Queue <= 0 {
		o.Queue = DefaultQueue
	}
	res := resourceOf(o)
	wctx, abort := context.WithCancel(context.WithoutCancel(ctx))
	e := &Exporter{
		queue:    make(chan *finished, o.Queue),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
		abort:    abort,
		sched:    scheduleFromEnv(),
		resource: res,
		spans:    newSpanBatch(res),
		in:       newInstruments(),
		started:  time.Now(),
		traces:   newPoster(o, "traces"),
		metrics:  newPoster(o, "metrics"),
		log:      o.Logger,
	}
	go e.work(wctx)
	return e, nil
}

// ToolCall implements mcp.CallObserver: it queues the call for the
// worker, or drops it when the queue is full. It never blocks.
func (e *Exporter) ToolCall(_ context.Context, c mcp.CallRecord) {
	select {
	case e.queue <- &finished{rec: c, end: time.Now()}:
	default:
		e.dropped.Add(1)
	}
}

// Dropped returns how many calls were not exported because the queue was
// full; 0 for a nil Exporter (no export).
func (e *Exporter) Dropped() uint64 {
	if e == nil {
		return 0
	}
	return e.dropped.Load()
}

// Shutdown sends what is queued and stops, within ctx: when ctx ends
// first the export under way is abandoned. It returns the error of the
// last spans' or counts' export, or ctx's.
func (e *Exporter) Shutdown(ctx context.Context) error {
	e.once.Do(func() { close(e.stop) })
	select {
	case <-e.done:
	case <-ctx.Done():
		e.abort()
		<-e.done
		return fmt.Errorf("shut the telemetry export down: %w", ctx.Err())
	}
	e.abort()
	if e.err != nil {
		return fmt.Errorf("shut the telemetry export down: %w", e.err)
	}
	return nil
}

// work turns queued calls into spans and counts, and sends them on the
// schedule, until Shutdown; then it drains the queue and sends the rest.
// A batch of spans is sent when it is full (batchSize spans or
// batchBytes), or batchDelay after its first span; while a request is
// under way the calls wait in the queue.
func (e *Exporter) work(ctx context.Context) {
	defer close(e.done)
	spanTimer := time.NewTimer(e.sched.delay)
	spanTimer.Stop()
	var due <-chan time.Time // spanTimer's channel while the batch holds spans
	metricTicker := time.NewTicker(e.sched.interval)
	defer metricTicker.Stop()
	for {
		select {
		case f := <-e.queue:
			e.record(ctx, f)
		case <-due:
			e.warn(e.sendSpans(ctx))
		case <-metricTicker.C:
			e.warn(e.sendMetrics(ctx))
		case <-e.stop:
			e.drain(ctx)
			return
		}
		switch {
		case e.spans.n == 0:
			due = nil
		case due == nil:
			spanTimer.Reset(e.sched.delay)
			due = spanTimer.C
		}
	}
}

// drain records the calls left in the queue and sends everything; the
// error of the last request that failed is Shutdown's to return.
func (e *Exporter) drain(ctx context.Context) {
	for {
		select {
		case f := <-e.queue:
			e.record(ctx, f)
		default:
			e.err = e.sendSpans(ctx)
			if err := e.sendMetrics(ctx); err != nil {
				e.err = err
			}
			return
		}
	}
}

// record makes the span of a call, into the batch, and counts it; a
// batch that is full is sent.
func (e *Exporter) record(ctx context.Context, f *finished) {
	a := callAttributes(f.rec)
	if s, sampled := spanOf(f, a); sampled {
		e.spans.add(s)
	}
	e.in.count(f, a)
	if e.spans.full(e.sched.size) {
		e.warn(e.sendSpans(ctx))
	}
}

// sendSpans sends the batch, if it holds spans, and empties it.
func (e *Exporter) sendSpans(ctx context.Context) error {
	if e.spans.n == 0 {
		return nil
	}
	defer e.spans.reset()
	return e.traces.send(ctx, e.spans.request())
}

// sendMetrics sends the counts so far.
func (e *Exporter) sendMetrics(ctx context.Context) error {
	e.mbuf = appendMetricsRequest(e.mbuf[:0], metricsRequest{
		resource: e.resource, in: e.in, dropped: e.Dropped(), start: e.started, now: time.Now(),
	})
	return e.metrics.send(ctx, e.mbuf)
}

// warn logs an export that failed.
func (e *Exporter) warn(err error) {
	if err != nil && e.log != nil {
		e.log.Warn("telemetry: export failed", "err", err)
	}
}
