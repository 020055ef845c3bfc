package metrics

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/views/dash"
)

// Source is what the metrics read: a node.Handle.
type Source interface {
	Dash(ctx context.Context, req dash.Request) (dash.Reply, error)
	IsOwner() bool
	OwnerChanges() int
	// SyncStats reports the owner's group commit: fsync rounds and the
	// appends they made durable; ok is false when this process counts
	// none (not the owner, or the server fsyncs by itself).
	SyncStats() (rounds, calls uint64, ok bool)
	// NATSRefused reports the operations the owner's NATS server refused
	// its clients (readers' mistakes, logged at debug level only); ok is
	// false when this process is not the owner.
	NATSRefused() (n uint64, ok bool)
}

// Options configure a Registry.
type Options struct {
	// SyncAlways is set when the ledger runs with --sync always (the
	// default): then every append is durable before it is acknowledged.
	SyncAlways bool
	// Logger receives a line when the read models cannot be read for a
	// scrape (warn). Nil discards them.
	Logger *slog.Logger
	// Version is clumsies_build_info's version label.
	Version string
	// TelemetryDropped, when the process exports to OpenTelemetry, counts
	// the calls the export dropped (clumsies_otel_dropped_calls_total).
	TelemetryDropped func() uint64
}

// scrapeTimeout bounds how long a scrape waits for the read models.
const scrapeTimeout = 5 * time.Second

// Registry holds the metrics of one process.
type Registry struct {
	reg        *prometheus.Registry
	sseClients prometheus.Gauge
}

// New returns the metrics of a process serving the workspace src.
func New(src Source, opts Options) *Registry {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &Registry{reg: prometheus.NewRegistry()}
	r.sseClients = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "clumsies_sse_clients", Help: "Live event streams (GET /events) open in this process.",
	})
	sync := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "clumsies_ledger_sync_always",
		Help: "1 when every append is durable before it is acknowledged (--sync always, the default: the owner's group commit), 0 when the server syncs on its interval (--sync interval).",
	})
	if opts.SyncAlways {
		sync.Set(1)
	}
	r.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		r.sseClients, sync, buildInfo(opts.Version),
		&ledgerCollector{src: src, log: log},
	)
	if opts.TelemetryDropped != nil {
		r.reg.MustRegister(telemetryDropped(opts.TelemetryDropped))
	}
	return r
}

// Handler serves the metrics in the Prometheus text format.
func (r *Registry) Handler() http.Handler {
	return promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{})
}

// CountStreams wraps the live stream's handler to count the streams open.
func (r *Registry) CountStreams(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodGet {
			r.sseClients.Inc()
			defer r.sseClients.Dec()
		}
		h.ServeHTTP(w, req)
	})
}

var (
	descCalls = prometheus.NewDesc("clumsies_tool_calls_total",
		"Tool calls recorded in the ledger, by tool and outcome (ok or error).", []string{"tool", "outcome"}, nil)
	descDuration = prometheus.NewDesc("clumsies_tool_duration_seconds",
		"Duration of the tool calls recorded in the ledger (the events' durationUs), by tool.", []string{"tool"}, nil)
	descEvents = prometheus.NewDesc("clumsies_ledger_events_total",
		"Events appended to the ledger by every process: the stream's last sequence (the stream has no gaps).", nil, nil)
	descApplied = prometheus.NewDesc("clumsies_projector_applied_seq",
		"Sequence of the last event the read models applied.", nil, nil)
	descLag = prometheus.NewDesc("clumsies_projector_lag_events",
		"Events in the stream that the read models have not applied yet: stream last sequence minus applied sequence.", nil, nil)
	descUp = prometheus.NewDesc("clumsies_read_models_up",
		"1 when this scrape could read the read models, 0 when not (the ledger metrics are then missing).", nil, nil)
	descOwner = prometheus.NewDesc("clumsies_owner",
		"1 when this process owns the workspace (its event store and read models), 0 when it reads through the owner.", nil, nil)
	descSyncRounds = prometheus.NewDesc("clumsies_ledger_fsyncs_total",
		"Fsync rounds of the ledger's group commit run by this process while it owned the workspace (each makes every append acknowledged before it durable).", nil, nil)
	descSyncCalls = prometheus.NewDesc("clumsies_ledger_synced_appends_total",
		"Appends (of every process) made durable by this process's group commit while it owned the workspace; divided by clumsies_ledger_fsyncs_total, the appends one fsync served.", nil, nil)
	descRefused = prometheus.NewDesc("clumsies_nats_refused_total",
		"Operations the workspace's NATS server refused a client (a permission it lacks, a limit, a wrong token: mostly external readers' mistakes) while this process owned the workspace; each is logged at debug level only.", nil, nil)
	descTakeovers = prometheus.NewDesc("clumsies_owner_changes_total",
		"Times this process had to find a new owner of the workspace since it started (a takeover).", nil, nil)
)

// bucketEdgesUs are the histogram's upper bounds in µs: powers of two from
// 16 µs to 16 s, which are bucket edges of the read model's histogram, so
// the counts are exact.
var bucketEdgesUs = func() []uint64 {
	var out []uint64
	for k := 4; k <= 24; k++ {
		out = append(out, 1<<k)
	}
	return out
}()

// ledgerCollector reads the ledger's figures from the read models at every
// scrape.
type ledgerCollector struct {
	src Source
	log *slog.Logger
}

func (c *ledgerCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descCalls, descDuration, descEvents, descApplied, descLag, descUp, descOwner, descTakeovers, descSyncRounds, descSyncCalls} {
		ch <- d
	}
	for _, d := range usageDescs {
		ch <- d
	}
}

func (c *ledgerCollector) Collect(ch chan<- prometheus.Metric) {
	owner := 0.0
	if c.src.IsOwner() {
		owner = 1
	}
	ch <- prometheus.MustNewConstMetric(descOwner, prometheus.GaugeValue, owner)
	ch <- prometheus.MustNewConstMetric(descTakeovers, prometheus.CounterValue, float64(c.src.OwnerChanges()))
	if rounds, calls, ok := c.src.SyncStats(); ok {
		// Counted by the owner's server since it started: a counter that
		// starts again at a takeover, which rate() reads as a reset.
		ch <- prometheus.MustNewConstMetric(descSyncRounds, prometheus.CounterValue, float64(rounds))
		ch <- prometheus.MustNewConstMetric(descSyncCalls, prometheus.CounterValue, float64(calls))
	}
	if n, ok := c.src.NATSRefused(); ok {
		ch <- prometheus.MustNewConstMetric(descRefused, prometheus.CounterValue, float64(n))
	}
	m, err := c.read()
	if err != nil {
		c.log.Warn("metrics: cannot read the read models", "err", err)
		ch <- prometheus.MustNewConstMetric(descUp, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(descUp, prometheus.GaugeValue, 1)
	ch <- prometheus.MustNewConstMetric(descEvents, prometheus.CounterValue, float64(m.LastSeq))
	ch <- prometheus.MustNewConstMetric(descApplied, prometheus.GaugeValue, float64(m.Applied))
	ch <- prometheus.MustNewConstMetric(descLag, prometheus.GaugeValue, float64(m.LastSeq-min(m.Applied, m.LastSeq)))
	lat := make(map[string]projections.Latency)
	for _, l := range m.Latencies {
		lat[l.Tool] = l
	}
	for _, t := range m.Tools {
		ch <- prometheus.MustNewConstMetric(descCalls, prometheus.CounterValue, float64(t.Calls-t.Errors), t.Tool, "ok")
		ch <- prometheus.MustNewConstMetric(descCalls, prometheus.CounterValue, float64(t.Errors), t.Tool, "error")
		ch <- histogram(t, lat[t.Tool])
	}
	collectUsage(ch, m)
}

func (c *ledgerCollector) read() (dash.Metrics, error) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	reply, err := c.src.Dash(ctx, dash.Request{Page: dash.PageMetrics})
	if err != nil {
		return dash.Metrics{}, err
	}
	if reply.Status != http.StatusOK {
		return dash.Metrics{}, fmt.Errorf("read models answered %d: %s", reply.Status, reply.Body)
	}
	var m dash.Metrics
	if err := json.Unmarshal(reply.Body, &m); err != nil {
		return dash.Metrics{}, fmt.Errorf("decode the metrics page: %w", err)
	}
	return m, nil
}

// histogram turns the read model's histogram of a tool into Prometheus
// buckets.
func histogram(t projections.ToolMetrics, l projections.Latency) prometheus.Metric {
	buckets := make(map[float64]uint64, len(bucketEdgesUs))
	var cum uint64
	i := 0
	for _, edge := range bucketEdgesUs {
		for ; i < len(l.Buckets) && projections.LatencyBound(i+1) <= edge; i++ {
			cum += l.Buckets[i]
		}
		buckets[float64(edge)/1e6] = cum
	}
	return prometheus.MustNewConstHistogram(descDuration, l.Count(), float64(t.TotalUs)/1e6, buckets, t.Tool)
}
