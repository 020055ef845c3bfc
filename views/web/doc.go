// Package web owns the HTTP front of `clumsies serve --http` and `clumsies
// ui`: the TCP listener and its rule (a token for any address that is not
// loopback), the kept token file, the routes (/mcp, /events, /healthz),
// bearer-token authentication, the DNS-rebinding guard of a loopback
// server, the Origin check of /mcp, the connection limits (per client
// address, idle connections closed first when slots run short), and a
// graceful shutdown that ends long-lived streams. It must not import
// anything but the standard library: it knows nothing of MCP or of the
// ledger, it is given their http.Handlers.
package web
