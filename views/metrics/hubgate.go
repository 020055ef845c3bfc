package metrics

import (
	"context"
	"slices"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// The hub's metrics of what the hooks and the gates recorded, per team
// (a label of a few values: never per session, node or workspace).
var (
	descHubEdits = prometheus.NewDesc("clumsies_hub_file_edits_total",
		"File-changing tool uses the hosts' hooks recorded (attest.file_edit), summed over every session of the team's nodes as the hub's evidence read model folds them (the team's hub stats evidence edits over all time).", []string{"team"}, nil)
	descHubReadModels = prometheus.NewDesc("clumsies_hub_read_models_up",
		"1 when this scrape could read the hub's evidence read model (the per-team gate metrics are then complete), 0 when not (they are then missing).", nil, nil)
)

func hubGateDescs() []*prometheus.Desc {
	return append(hubGate.list(), descHubEdits, descHubReadModels)
}

// collectGates sends, per team, the file edits and the gates' figures:
// the teams of the read models, and zeros for a team of nodes whose
// sessions recorded none yet, so that its first denial is an increase.
func (c *hubCollector) collectGates(ctx context.Context, ch chan<- prometheus.Metric, nodes []hubwire.TeamNode) {
	gates, err := c.src.TeamGates(ctx)
	if err != nil {
		c.log.Warn("metrics: cannot read the hub's evidence", "err", err)
		ch <- prometheus.MustNewConstMetric(descHubReadModels, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(descHubReadModels, prometheus.GaugeValue, 1)
	gates = slices.Clone(gates) // the hub's, shared
	for _, n := range nodes {
		if !slices.ContainsFunc(gates, func(g hubwire.TeamGate) bool { return g.Team == n.Team }) {
			gates = append(gates, hubwire.TeamGate{Team: n.Team})
		}
	}
	for _, g := range gates {
		ch <- prometheus.MustNewConstMetric(descHubEdits, prometheus.CounterValue, float64(g.Edits), g.Team)
		hubGate.collect(ch, g.Gate, g.Team)
	}
}
