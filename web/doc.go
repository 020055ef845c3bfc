// Package web owns the HTTP front of `clumsies serve --http`: the TCP
// listener and its rule (loopback by default, a token for anything else),
// the routes (/mcp, /events, /healthz), bearer-token authentication, the
// DNS-rebinding guard of a loopback server, and a graceful shutdown that
// ends long-lived streams. It must not import anything but the standard
// library: it knows nothing of MCP or of the ledger, it is given their
// http.Handlers.
package web
