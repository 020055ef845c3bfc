package metrics

import (
	"runtime"

	"github.com/prometheus/client_golang/prometheus"
)

// buildInfo is clumsies_build_info: 1, with the version and the Go
// version as labels, to join to other series or to see a rollout.
func buildInfo(version string) prometheus.Collector {
	if version == "" {
		version = "dev"
	}
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "clumsies_build_info",
		Help:        "Always 1: the version of clumsies this process runs and the Go version it was built with, as labels.",
		ConstLabels: prometheus.Labels{"version": version, "goversion": runtime.Version()},
	})
	g.Set(1)
	return g
}
