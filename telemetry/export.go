package telemetry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

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
	tp      *sdktrace.TracerProvider
	mp      *sdkmetric.MeterProvider
	tracer  trace.Tracer
	inst    instruments
	prop    propagation.TextMapPropagator
}

// finished is a call as the worker gets it.
type finished struct {
	rec mcp.CallRecord
	end time.Time
}

var _ mcp.CallObserver = (*Exporter)(nil)

// Start returns an Exporter sending to the collector o names. It does not
// wait for the collector: an export that fails is logged and dropped by
// the SDK, and the calls go on.
func Start(ctx context.Context, o Options) (*Exporter, error) {
	if o.Protocol != "" && o.Protocol != ProtocolHTTP {
		return nil, protocolError(o.Protocol)
	}
	if o.Queue <= 0 {
		o.Queue = DefaultQueue
	}
	if o.Logger != nil {
		otelLogger(o.Logger)
	}
	res := resource.NewWithAttributes("",
		attribute.String("service.name", "clumsies"),
		attribute.String("service.version", o.Version),
		attribute.String("clumsies.workspace.id", o.WorkspaceID),
	)
	spans := &spanExporter{post: newPoster(o, "traces")}
	metrics := &metricExporter{post: newPoster(o, "metrics")}
	e := &Exporter{
		queue: make(chan *finished, o.Queue),
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
		tp: sdktrace.NewTracerProvider(sdktrace.WithResource(res),
			sdktrace.WithBatcher(spans, batchOptions()...)),
		mp: sdkmetric.NewMeterProvider(sdkmetric.WithResource(res),
			sdkmetric.WithReader(sdkmetric.NewPeriodicReader(metrics))),
		prop: propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
	}
	e.tracer = e.tp.Tracer(scope)
	var err error
	if e.inst, err = newInstruments(e.mp.Meter(scope), e.Dropped); err != nil {
		return nil, errors.Join(err, e.tp.Shutdown(ctx), e.mp.Shutdown(ctx))
	}
	go e.work()
	return e, nil
}

// batchDelay is how long the SDK's batch processor keeps spans before it
// sends them, unless OTEL_BSP_SCHEDULE_DELAY says otherwise: the SDK's
// 5 s held up to 2,048 spans (~3 MiB) in a busy serve.
const batchDelay = time.Second

// batchOptions are the batch processor's settings. Blocking: when the
// SDK's queue is full the worker waits, and the calls' queue in front of
// it drops (and counts) instead.
func batchOptions() []sdktrace.BatchSpanProcessorOption {
	opts := []sdktrace.BatchSpanProcessorOption{sdktrace.WithBlocking()}
	if os.Getenv("OTEL_BSP_SCHEDULE_DELAY") == "" {
		opts = append(opts, sdktrace.WithBatchTimeout(batchDelay))
	}
	return opts
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

// Shutdown exports what is queued and stops, within ctx.
func (e *Exporter) Shutdown(ctx context.Context) error {
	e.once.Do(func() { close(e.stop) })
	select {
	case <-e.done:
	case <-ctx.Done():
	}
	err := errors.Join(e.tp.Shutdown(ctx), e.mp.Shutdown(ctx))
	if err != nil {
		return fmt.Errorf("shut the telemetry export down: %w", err)
	}
	return nil
}

// work turns queued calls into spans and counts until Shutdown, then
// drains the queue.
func (e *Exporter) work() {
	defer close(e.done)
	for {
		select {
		case f := <-e.queue:
			e.export(f)
		case <-e.stop:
			for {
				select {
				case f := <-e.queue:
					e.export(f)
				default:
					return
				}
			}
		}
	}
}

// export makes the span of a call and counts it.
func (e *Exporter) export(f *finished) {
	a := callAttributes(f.rec)
	parent := e.prop.Extract(context.Background(), metaCarrier(f.rec.Meta))
	_, span := e.tracer.Start(parent, spanName(f.rec), trace.WithSpanKind(trace.SpanKindServer),
		trace.WithTimestamp(f.rec.Start), trace.WithAttributes(a.span...))
	a.status(span)
	span.End(trace.WithTimestamp(f.end))
	e.inst.count(f, a)
}

// otelLogger sends the SDK's errors (an export that failed) to log.
func otelLogger(log *slog.Logger) {
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { log.Warn("telemetry: export failed", "err", err) }))
}
