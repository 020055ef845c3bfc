package mcp

import "github.com/modelcontextprotocol/go-sdk/mcp"

// clientOf is the MCP client that made req, as the SDK's ClientInfo says
// it: the request's _meta names it at protocol 2026-07-28, and older
// protocols' initialize named it for the session. The SDK's ClientInfo
// encodes and decodes the _meta value again on every call (~30 KB of
// garbage per call); here the name and version are read from the _meta
// the SDK has already decoded.
func clientOf(req *mcp.CallToolRequest) *mcp.Implementation {
	if req.Params != nil {
		switch v := req.Params.Meta[mcp.MetaKeyClientInfo].(type) {
		case *mcp.Implementation:
			return v
		case map[string]any:
			name, okName := optString(v, "name")
			version, okVersion := optString(v, "version")
			if okName && okVersion {
				return &mcp.Implementation{Name: name, Version: version}
			}
		}
	}
	if req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil {
			return p.ClientInfo
		}
	}
	return nil
}

// optString returns m[key] if it is a string or absent (""), and whether
// it was either.
func optString(m map[string]any, key string) (string, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return "", true
	}
	s, ok := v.(string)
	return s, ok
}
