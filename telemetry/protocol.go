package telemetry

import (
	"errors"
	"fmt"
)

// ErrGRPC is the error of an [otel] table asking for OTLP/gRPC.
var ErrGRPC = errors.New("telemetry: OTLP/gRPC is not supported")

// protocolError says that protocol is not spoken and what to set instead.
func protocolError(protocol string) error {
	const use = `set protocol = "http" (or leave it out) and point endpoint at the collector's OTLP/HTTP port, 4318 by default (docs/dashboard.md, "Telemetry")`
	if protocol == "grpc" {
		return fmt.Errorf("%w: clumsies exports over OTLP/HTTP only, which the Collector and every vendor accept: %s", ErrGRPC, use)
	}
	return fmt.Errorf("telemetry: protocol %q is not supported: %s", protocol, use)
}
