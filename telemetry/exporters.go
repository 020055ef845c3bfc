package telemetry

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// spanExporter returns the OTLP span exporter opts name. Creating it does
// not connect.
func spanExporter(ctx context.Context, o Options) (sdktrace.SpanExporter, error) {
	var (
		exp sdktrace.SpanExporter
		err error
	)
	if o.Protocol == ProtocolGRPC {
		opts := []otlptracegrpc.Option{otlptracegrpc.WithEndpoint(o.Host)}
		if o.Insecure {
			opts = append(opts, otlptracegrpc.WithInsecure())
		}
		if len(o.Headers) > 0 {
			opts = append(opts, otlptracegrpc.WithHeaders(o.Headers))
		}
		exp, err = otlptracegrpc.New(ctx, opts...)
	} else {
		opts := []otlptracehttp.Option{otlptracehttp.WithEndpoint(o.Host), otlptracehttp.WithURLPath(o.Path + "/v1/traces")}
		if o.Insecure {
			opts = append(opts, otlptracehttp.WithInsecure())
		}
		if len(o.Headers) > 0 {
			opts = append(opts, otlptracehttp.WithHeaders(o.Headers))
		}
		exp, err = otlptracehttp.New(ctx, opts...)
	}
	if err != nil {
		return nil, fmt.Errorf("make the %s span exporter: %w", o.Protocol, err)
	}
	return exp, nil
}

// metricExporter returns the OTLP metric exporter opts name.
func metricExporter(ctx context.Context, o Options) (sdkmetric.Exporter, error) {
	var (
		exp sdkmetric.Exporter
		err error
	)
	if o.Protocol == ProtocolGRPC {
		opts := []otlpmetricgrpc.Option{otlpmetricgrpc.WithEndpoint(o.Host)}
		if o.Insecure {
			opts = append(opts, otlpmetricgrpc.WithInsecure())
		}
		if len(o.Headers) > 0 {
			opts = append(opts, otlpmetricgrpc.WithHeaders(o.Headers))
		}
		exp, err = otlpmetricgrpc.New(ctx, opts...)
	} else {
		opts := []otlpmetrichttp.Option{otlpmetrichttp.WithEndpoint(o.Host), otlpmetrichttp.WithURLPath(o.Path + "/v1/metrics")}
		if o.Insecure {
			opts = append(opts, otlpmetrichttp.WithInsecure())
		}
		if len(o.Headers) > 0 {
			opts = append(opts, otlpmetrichttp.WithHeaders(o.Headers))
		}
		exp, err = otlpmetrichttp.New(ctx, opts...)
	}
	if err != nil {
		return nil, fmt.Errorf("make the %s metric exporter: %w", o.Protocol, err)
	}
	return exp, nil
}
