package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/clumsies/clumsies/projections"
)

// gateDescs are the metrics of what the gates recorded: a workspace's
// over its sessions (workspaceGate), and the hub's per team (hubGate),
// with the same names but the hub's prefix, the same meaning and the same
// decision and seen labels.
type gateDescs struct {
	decisions, ungated, protected, stopGate *prometheus.Desc
}

// newGateDescs describes the gate's metrics named prefix+"gate_decisions_total"
// and so on, with the labels before their own; from names where the
// figures come from.
func newGateDescs(prefix, from string, labels ...string) gateDescs {
	with := func(own ...string) []string { return append(append([]string{}, labels...), own...) }
	return gateDescs{
		decisions: prometheus.NewDesc(prefix+"gate_decisions_total",
			"Tools the pre-tool gate spoke up on (attest.tool_gated), by decision: deny (refused: rules in scope not loaded), warn (ran, the agent was told), unchecked (ran, the gate could not check)"+from, with("decision"), nil),
		ungated: prometheus.NewDesc(prefix+"ungated_changes_total",
			"Changes the hooks recorded of files in scope of rules the session had not loaded (attest.file_edit with unloaded)"+from, with(), nil),
		protected: prometheus.NewDesc(prefix+"protected_files_total",
			"Events about the enforcement's own files (config.toml, the content tree, the hooks' wiring): seen = gated (a tool about to change them, attest.tool_gated) or changed (attest.file_edit)"+from, with("seen"), nil),
		stopGate: prometheus.NewDesc(prefix+"stop_gate_blocks_total",
			"Stops the stop hook held because files the session changed are in scope of rules it had not loaded (attest.stop_blocked with files)"+from, with(), nil),
	}
}

var (
	workspaceGate = newGateDescs("clumsies_", ".")
	hubGate       = newGateDescs("clumsies_hub_",
		", summed over every session of the team's nodes as the hub's evidence read model folds them (the team's hub stats evidence over all time).", "team")
)

func (d gateDescs) list() []*prometheus.Desc {
	return []*prometheus.Desc{d.decisions, d.ungated, d.protected, d.stopGate}
}

// collect sends the figures g with the label values labels (those before
// the metrics' own).
func (d gateDescs) collect(ch chan<- prometheus.Metric, g projections.GateFigures, labels ...string) {
	counter := func(desc *prometheus.Desc, v uint64, own ...string) {
		ch <- prometheus.MustNewConstMetric(desc, prometheus.CounterValue, float64(v), append(append([]string{}, labels...), own...)...)
	}
	counter(d.decisions, g.Denials, "deny")
	counter(d.decisions, g.Warnings, "warn")
	counter(d.decisions, g.Unchecked, "unchecked")
	counter(d.ungated, g.Ungated)
	counter(d.protected, g.ProtectedGated, "gated")
	counter(d.protected, g.ProtectedChanges, "changed")
	counter(d.stopGate, g.StopGateBlocks)
}
