package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionHeader names the Streamable HTTP session of a request.
const sessionHeader = "Mcp-Session-Id"

// msgNotInitHTTP answers a request sent over HTTP outside any session.
const msgNotInitHTTP = "Invalid Request: the session is not initialized; POST initialize first, then send its Mcp-Session-Id with every request"

// requireInitialize answers a POST without a session whose message is a
// request other than initialize (or ping, or one of the sessionless
// protocol) with HTTP 400 and the JSON-RPC error Invalid Request
// (-32600), as over stdio: the SDK would answer it with code 0. Anything
// else goes to next, the body as it came.
func requireInitialize(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get(sessionHeader) != "" || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		orig := r.Body
		body, err := io.ReadAll(orig)
		if err != nil {
			// Too large or cut: the SDK reads what was read, then the
			// same failure, and answers it. The body is not closed: that
			// would clear the read deadline of a client that stopped.
			r.Body = bodyAgain{Reader: io.MultiReader(bytes.NewReader(body), orig), Closer: orig}
			next.ServeHTTP(w, r)
			return
		}
		orig.Close()
		if id, ok := beforeInitialize(body); ok {
			writeHTTPError(w, id, jsonrpc.CodeInvalidRequest, msgNotInitHTTP)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// beforeInitialize reports whether body is one JSON-RPC request that
// needs an initialized session, and its id.
func beforeInitialize(body []byte) (json.RawMessage, bool) {
	if first(body) != '{' || !json.Valid(body) {
		return nil, false
	}
	m := make(map[string]json.RawMessage, 4)
	if err := eachMember(body, func(name string, v json.RawMessage) error { m[name] = v; return nil }); err != nil {
		return nil, false
	}
	id, hasID := m["id"]
	var method string
	if !hasID || !validID(id) || json.Unmarshal(m["method"], &method) != nil {
		return nil, false
	}
	return id, method != "initialize" && method != "ping" && !sessionless(m["params"])
}

// writeHTTPError answers with HTTP 400 and a JSON-RPC error.
func writeHTTPError(w http.ResponseWriter, id json.RawMessage, code int64, message string) {
	data, err := json.Marshal(wireResponse{JSONRPC: "2.0", ID: id, Error: &jsonrpc.Error{Code: code, Message: message}})
	if err != nil {
		http.Error(w, fmt.Sprintf("encode an error answer: %v", err), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(data)
}

// bodyAgain is a request body read again from the start.
type bodyAgain struct {
	io.Reader
	io.Closer
}

// protocolHeader names the protocol version of a Streamable HTTP request.
const protocolHeader = "Mcp-Protocol-Version"

// statelessVersion is the first protocol version without sessions.
const statelessVersion = "2026-07-28"

// maxPeek bounds how much of a POST byProtocol reads to find its version:
// the SDK's own bound on a request body (a longer one it refuses anyway).
const maxPeek = mcp.DefaultMaxRequestBodyBytes

// byProtocol sends a request of the stateless protocol (2026-07-28 and
// later: the Mcp-Protocol-Version header says so, or, without it, the
// _meta of the JSON-RPC request in a POST) to stateless, and every other
// request to stateful.
func byProtocol(stateful, stateless http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get(protocolHeader); v != "" {
			if v >= statelessVersion {
				stateless.ServeHTTP(w, r)
			} else {
				stateful.ServeHTTP(w, r)
			}
			return
		}
		if r.Method != http.MethodPost || r.Body == nil || r.Header.Get(sessionHeader) != "" {
			stateful.ServeHTTP(w, r)
			return
		}
		orig := r.Body
		body, err := io.ReadAll(io.LimitReader(orig, maxPeek+1))
		r.Body = bodyAgain{Reader: io.MultiReader(bytes.NewReader(body), orig), Closer: orig}
		if err == nil && len(body) <= maxPeek && statelessRequest(body) {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	})
}

// statelessRequest reports whether body is a JSON-RPC request whose params
// carry a protocol version of their own (the stateless protocol).
func statelessRequest(body []byte) bool {
	if first(body) != '{' || !json.Valid(body) {
		return false
	}
	var req struct {
		Params json.RawMessage `json:"params"`
	}
	return json.Unmarshal(body, &req) == nil && sessionless(req.Params)
}

// statelessKey marks the context of a request served without a session.
type statelessKey struct{}

// markStateless marks the requests next serves as served without a
// session, for the tools (call.stateless).
func markStateless(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), statelessKey{}, true)))
	})
}

// isStateless reports whether ctx is that of a request markStateless saw.
func isStateless(ctx context.Context) bool { v, _ := ctx.Value(statelessKey{}).(bool); return v }
