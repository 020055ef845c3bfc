package metrics

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// HubSource is what the hub's metrics read: the hub server.
type HubSource interface {
	TeamNodes(ctx context.Context, teams []string) ([]hubwire.TeamNode, error)
	// TeamGates sums, per team, the file edits and the gates' figures of
	// every session of its nodes (one item per team).
	TeamGates(ctx context.Context) ([]hubwire.TeamGate, error)
}

var (
	descLinkUp = prometheus.NewDesc("clumsies_hub_node_link_up",
		"1 when the node's leaf link to this hub is up.", []string{"node", "team", "workspace"}, nil)
	descSourceLag = prometheus.NewDesc("clumsies_hub_node_sourcing_lag_messages",
		"Messages of the node's ledger the aggregate has not received yet, as JetStream last saw them (known while the link is up).", []string{"node"}, nil)
	descSourceActive = prometheus.NewDesc("clumsies_hub_node_sourcing_active_seconds",
		"Seconds since the aggregate last heard from the node's source.", []string{"node"}, nil)
	descNodeApplied = prometheus.NewDesc("clumsies_hub_node_applied_seq",
		"The last sequence of the node's ledger the hub's projector applied.", []string{"node"}, nil)
	// Not a count of nodes (clumsies_hub_node_link_up counts those that
	// are linked): whether this scrape could read the registry at all.
	descHubUp = prometheus.NewDesc("clumsies_hub_nodes_scrape_success",
		"1 when this scrape could read the hub's node registry (the per-node metrics are then complete), 0 when not. Not a count of nodes: sum clumsies_hub_node_link_up for the nodes linked.", nil, nil)
)

// HubHandler serves the metrics of a hub: per node its link state,
// sourcing lag and applied sequence, per team what the hooks and the
// gates recorded (hubgate.go), the build info of version, and the
// Go and process collectors.
func HubHandler(src HubSource, log *slog.Logger, version string) http.Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		buildInfo(version), &hubCollector{src: src, log: log})
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
}

type hubCollector struct {
	src HubSource
	log *slog.Logger
}

func (c *hubCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descLinkUp, descSourceLag, descSourceActive, descNodeApplied, descHubUp} {
		ch <- d
	}
	for _, d := range hubGateDescs() {
		ch <- d
	}
}

func (c *hubCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	nodes, err := c.src.TeamNodes(ctx, nil)
	// The gates' figures come from the read models, not the registry:
	// they are given when only the registry cannot be read.
	defer func() { c.collectGates(ctx, ch, nodes) }()
	if err != nil {
		c.log.Warn("metrics: cannot read the hub's nodes", "err", err)
		ch <- prometheus.MustNewConstMetric(descHubUp, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(descHubUp, prometheus.GaugeValue, 1)
	for _, n := range nodes {
		up := 0.0
		if n.Link.Up {
			up = 1
		}
		ch <- prometheus.MustNewConstMetric(descLinkUp, prometheus.GaugeValue, up, n.ID, n.Team, n.Workspace)
		ch <- prometheus.MustNewConstMetric(descNodeApplied, prometheus.GaugeValue, float64(n.HubSeq), n.ID)
		if n.Sourcing != nil {
			ch <- prometheus.MustNewConstMetric(descSourceLag, prometheus.GaugeValue, float64(n.Sourcing.Lag), n.ID)
			ch <- prometheus.MustNewConstMetric(descSourceActive, prometheus.GaugeValue, n.Sourcing.Active.Seconds(), n.ID)
		}
	}
}
