package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/clumsies/clumsies/mcp"
	"github.com/clumsies/clumsies/telemetry"
	"github.com/clumsies/clumsies/workspace"
)

// telemetryShutdown bounds how long serve waits, when it stops, for the
// last spans and counts to reach the collector.
const telemetryShutdown = 5 * time.Second

// startTelemetry starts the OpenTelemetry export the workspace's [otel]
// table asks for (docs/dashboard.md, "Telemetry"): the observer to give
// the MCP server, nil when the table names no endpoint, and the function
// that flushes and stops it. An export that cannot start does not stop
// serve: the table is turned off (ws.Config.Wrong says why) and serve goes
// on without it.
func (c *ServeCommand) startTelemetry(ctx context.Context, ws *workspace.Workspace, stderr io.Writer) (*telemetry.Exporter, func()) {
	cfg := ws.Config.OTel
	if !cfg.Enabled() {
		return nil, func() {}
	}
	exp, stop, err := c.exportTo(ctx, ws, cfg, stderr)
	if err != nil {
		ws.Config.OTel = workspace.OTelConfig{}
		ws.Config.Wrong = append(ws.Config.Wrong, workspace.TableWrong{Table: "otel", Reason: err.Error()})
		return nil, func() {}
	}
	return exp, stop
}

// exportTo starts the export to cfg's collector.
func (c *ServeCommand) exportTo(ctx context.Context, ws *workspace.Workspace, cfg workspace.OTelConfig, stderr io.Writer) (*telemetry.Exporter, func(), error) {
	tgt, err := cfg.Target()
	if err != nil {
		return nil, nil, fmt.Errorf("start the telemetry export: %w", err)
	}
	logger, _ := c.ws.logger(stderr)
	exp, err := telemetry.Start(ctx, telemetry.Options{
		Protocol: tgt.Protocol, Host: tgt.Host, Path: tgt.Path, Insecure: tgt.Insecure, Headers: cfg.Headers,
		WorkspaceID: ws.ID(), Version: version(), Logger: logger,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("start the telemetry export to %s: %w", cfg.Endpoint, err)
	}
	stop := func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), telemetryShutdown)
		defer cancel()
		if err := exp.Shutdown(sctx); err != nil && logger != nil {
			logger.Warn("telemetry: the last export did not finish", "err", err)
		}
	}
	return exp, stop, nil
}

// observer is exp as the MCP server takes it: nil (no observer) when
// there is no export.
func observer(exp *telemetry.Exporter) mcp.CallObserver {
	if exp == nil {
		return nil
	}
	return exp
}
