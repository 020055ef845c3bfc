package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/clumsies/clumsies/views/dash"
)

// The usage metrics: what agents did with the rules, as the read models
// count it (every process of a workspace reports the same figures).
var (
	descSessions = prometheus.NewDesc("clumsies_sessions_total",
		"Agent sessions the ledger has seen, by kind: set_up (a memsetup bound them) or hooks_only (seen by a host hook only).", []string{"kind"}, nil)
	descReports = prometheus.NewDesc("clumsies_reports_total",
		"Turns agents closed with agentreport (successful calls).", nil, nil)
	descRejections = prometheus.NewDesc("clumsies_rejections_total",
		"Turns recorded as rejected with agentrejected (successful calls): the result did not follow the loaded rules.", nil, nil)
	descOpenDrafts = prometheus.NewDesc("clumsies_open_drafts",
		"Drafts agents proposed that wait for review.", nil, nil)
	descPublished = prometheus.NewDesc("clumsies_rules_published",
		"Published rules, workflows and context items.", nil, nil)
	descRuleRefs = prometheus.NewDesc("clumsies_rule_refs_total",
		"Constraints agents declared they applied (memref), for the 20 most referenced rules, workflows and context items (rule = id, path = its file); the refs of the others are clumsies_rule_refs_other_total. A rule leaves the series when others pass it.", []string{"rule", "path"}, nil)
	descRuleRefsOther = prometheus.NewDesc("clumsies_rule_refs_other_total",
		"Refs of the rules, workflows and context items not named in clumsies_rule_refs_total.", nil, nil)
)

// usageDescs are the usage metrics' descriptions.
var usageDescs = append([]*prometheus.Desc{descSessions, descReports, descRejections, descOpenDrafts, descPublished, descRuleRefs, descRuleRefsOther},
	workspaceGate.list()...)

// The tools whose successful calls are counted apart.
const (
	toolReport = "agentreport"
	toolReject = "agentrejected"
)

// collectUsage sends the usage metrics of m.
func collectUsage(ch chan<- prometheus.Metric, m dash.Metrics) {
	ch <- prometheus.MustNewConstMetric(descSessions, prometheus.CounterValue, float64(m.Sessions), "set_up")
	ch <- prometheus.MustNewConstMetric(descSessions, prometheus.CounterValue, float64(m.SessionsHooksOnly), "hooks_only")
	var reports, rejections uint64
	for _, t := range m.Tools {
		switch t.Tool {
		case toolReport:
			reports = t.Calls - t.Errors
		case toolReject:
			rejections = t.Calls - t.Errors
		}
	}
	ch <- prometheus.MustNewConstMetric(descReports, prometheus.CounterValue, float64(reports))
	ch <- prometheus.MustNewConstMetric(descRejections, prometheus.CounterValue, float64(rejections))
	ch <- prometheus.MustNewConstMetric(descOpenDrafts, prometheus.GaugeValue, float64(m.OpenDrafts))
	ch <- prometheus.MustNewConstMetric(descPublished, prometheus.GaugeValue, float64(m.Published))
	for _, r := range m.Rules {
		ch <- prometheus.MustNewConstMetric(descRuleRefs, prometheus.CounterValue, float64(r.Refs), r.ID, r.Path)
	}
	ch <- prometheus.MustNewConstMetric(descRuleRefsOther, prometheus.CounterValue, float64(m.RestRefs))
	workspaceGate.collect(ch, m.Gate)
}
