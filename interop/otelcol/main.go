// Command otelcol is the smallest OpenTelemetry Collector the telemetry
// test needs: the OTLP receiver (gRPC and HTTP) and an exporter that
// appends what it receives to a file, one OTLP/JSON document a line.
// It is its own module so that the project's go.mod does not pull the
// collector; the test builds it once and caches the binary.
package main

import (
	"context"
	"fmt"
	"os"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/service/telemetry/otelconftelemetry"
)

func components() (otelcol.Factories, error) {
	recv, err := otelcol.MakeFactoryMap[receiver.Factory](otlpreceiver.NewFactory())
	if err != nil {
		return otelcol.Factories{}, fmt.Errorf("make the receivers: %w", err)
	}
	exp, err := otelcol.MakeFactoryMap[exporter.Factory](newJSONLinesFactory())
	if err != nil {
		return otelcol.Factories{}, fmt.Errorf("make the exporters: %w", err)
	}
	return otelcol.Factories{Receivers: recv, Exporters: exp, Telemetry: otelconftelemetry.NewFactory()}, nil
}

func main() {
	set := otelcol.CollectorSettings{
		BuildInfo: component.BuildInfo{Command: "otelcol", Description: "clumsies' test collector", Version: "0.165.0"},
		Factories: components,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{
			ResolverSettings: confmap.ResolverSettings{
				ProviderFactories: []confmap.ProviderFactory{fileprovider.NewFactory()},
				DefaultScheme:     "file",
			},
		},
	}
	if err := otelcol.NewCommand(set).ExecuteContext(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "otelcol:", err)
		os.Exit(1)
	}
}
