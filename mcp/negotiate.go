package mcp

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// negotiateMiddleware makes server/discover refuse a protocol version the
// connection cannot serve, instead of answering it.
//
// A client of protocol 2026-07-28 probes with server/discover before
// anything else. Over stdio the SDK serves that version, and over HTTP
// HTTPHandler hands requests of that version to the SDK's stateless mode,
// which serves it too. Over stateful Streamable HTTP the SDK does not,
// yet answers the probe successfully with the older versions only; a
// client that takes any successful answer as "this server speaks
// 2026-07-28" (mcp-go does) then sends its next
// request in that version and has it refused. Answered with the
// unsupported-protocol-version error and the versions the connection does
// serve, every client falls back to the initialize handshake, as the
// protocol says it should.
func (s *Server) negotiateMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "server/discover" {
			return res, err
		}
		r, ok := res.(*mcp.DiscoverResult)
		if !ok {
			return res, err
		}
		requested := ""
		if sr, ok := req.(*mcp.ServerRequest[*mcp.DiscoverParams]); ok {
			requested = sr.ProtocolVersion()
		}
		if requested == "" || slices.Contains(r.SupportedVersions, requested) {
			return res, nil
		}
		data, err := json.Marshal(mcp.UnsupportedProtocolVersionData{Supported: r.SupportedVersions, Requested: requested})
		if err != nil {
			return nil, err
		}
		return nil, &jsonrpc.Error{Code: mcp.CodeUnsupportedProtocolVersion, Message: "unsupported protocol version", Data: data}
	}
}
