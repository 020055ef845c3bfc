package workspace

import (
	"fmt"
	"net/url"
	"strings"
)

// The protocols an [otel] endpoint speaks.
const (
	OTelHTTP = "http" // OTLP/HTTP with protobuf bodies (port 4318), the default
	OTelGRPC = "grpc" // OTLP/gRPC (port 4317): parsed, refused by serve's export

)

// OTelConfig is the [otel] table of config.toml: where serve exports a
// span per tool call and the usage counters (docs/dashboard.md,
// "Telemetry"). Without an endpoint nothing is exported.
type OTelConfig struct {
	// Endpoint is the collector's URL: http://host:port sends in clear
	// text, https:// over TLS; for HTTP a path, if any, is put before
	// /v1/traces and /v1/metrics.
	Endpoint string `toml:"endpoint"`
	// Protocol is "http" (the default). "grpc" is read so that the other
	// commands still run, and serve refuses it (telemetry.ErrGRPC).
	Protocol string `toml:"protocol"`
	// Headers are sent with every export. A secret belongs in the
	// environment instead (OTEL_EXPORTER_OTLP_HEADERS), since this file
	// is committed.
	Headers map[string]string `toml:"headers"`
}

// OTelTarget is an endpoint taken apart.
type OTelTarget struct {
	Protocol string // OTelHTTP or OTelGRPC
	Host     string // host:port
	Path     string // the HTTP path prefix, without a trailing slash
	Insecure bool   // http://: no TLS
}

// Enabled reports whether the table names an endpoint.
func (c OTelConfig) Enabled() bool { return c.Endpoint != "" }

// Target takes the endpoint apart; the config's check has called it.
func (c OTelConfig) Target() (OTelTarget, error) {
	proto := c.Protocol
	switch proto {
	case "":
		proto = OTelHTTP
	case OTelHTTP, OTelGRPC:
	default:
		return OTelTarget{}, fmt.Errorf("otel protocol %q: want %q or %q", c.Protocol, OTelHTTP, OTelGRPC)
	}
	u, err := url.Parse(c.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return OTelTarget{}, fmt.Errorf("otel endpoint %q: want a URL like http://localhost:4318 (or https://)", c.Endpoint)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return OTelTarget{}, fmt.Errorf("otel endpoint %q: give only the scheme, host, port and path", c.Endpoint)
	}
	return OTelTarget{Protocol: proto, Host: u.Host, Path: strings.TrimSuffix(u.Path, "/"), Insecure: u.Scheme == "http"}, nil
}

// check says what is wrong with the table, or nil.
func (c OTelConfig) check() error {
	if !c.Enabled() {
		if c.Protocol != "" || len(c.Headers) > 0 {
			return fmt.Errorf("otel: protocol and headers need an endpoint")
		}
		return nil
	}
	_, err := c.Target()
	return err
}
