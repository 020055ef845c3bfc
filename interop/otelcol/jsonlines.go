package main

import (
	"context"
	"fmt"
	"os"
	"sync"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/pdata/pmetric"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// jsonLinesConfig names the file the exporter appends to.
type jsonLinesConfig struct {
	Path string `mapstructure:"path"`
}

func newJSONLinesFactory() exporter.Factory {
	return exporter.NewFactory(component.MustNewType("jsonlines"),
		func() component.Config { return &jsonLinesConfig{} },
		exporter.WithTraces(func(_ context.Context, _ exporter.Settings, cfg component.Config) (exporter.Traces, error) {
			return &jsonLines{path: cfg.(*jsonLinesConfig).Path}, nil
		}, component.StabilityLevelDevelopment),
		exporter.WithMetrics(func(_ context.Context, _ exporter.Settings, cfg component.Config) (exporter.Metrics, error) {
			return &jsonLines{path: cfg.(*jsonLinesConfig).Path}, nil
		}, component.StabilityLevelDevelopment),
	)
}

// jsonLines appends every batch it consumes to its file as one line of
// OTLP/JSON: {"resourceSpans":...} or {"resourceMetrics":...}.
type jsonLines struct {
	path string
	mu   sync.Mutex
	f    *os.File
}

func (j *jsonLines) Start(context.Context, component.Host) error {
	f, err := os.OpenFile(j.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open the output: %w", err)
	}
	j.f = f
	return nil
}

func (j *jsonLines) Shutdown(context.Context) error {
	if j.f == nil {
		return nil
	}
	return j.f.Close()
}

func (j *jsonLines) Capabilities() consumer.Capabilities { return consumer.Capabilities{} }

func (j *jsonLines) ConsumeTraces(_ context.Context, td ptrace.Traces) error {
	b, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	if err != nil {
		return fmt.Errorf("marshal the spans: %w", err)
	}
	return j.write(b)
}

func (j *jsonLines) ConsumeMetrics(_ context.Context, md pmetric.Metrics) error {
	b, err := (&pmetric.JSONMarshaler{}).MarshalMetrics(md)
	if err != nil {
		return fmt.Errorf("marshal the metrics: %w", err)
	}
	return j.write(b)
}

func (j *jsonLines) write(b []byte) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write the output: %w", err)
	}
	return nil
}
