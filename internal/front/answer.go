package front

import (
	"bytes"
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// Server is what an initialize answer says about the server.
type Server struct {
	Version      string // serverInfo.version: the build's
	Instructions string // the META_PROMPT, as the core's early frame gives it
}

// Versions are the protocol versions the front answers initialize in: the
// ones the core's SDK answers by echoing them. A newer version (its
// initialize is negotiated down) or an unknown one is handed over
// unanswered, and the core negotiates.
var Versions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// DiscoverVersion is the protocol version whose server/discover the front
// answers; Supported is what the answer lists (the core's SDK's versions,
// newest first).
const DiscoverVersion = "2026-07-28"

// Supported are the protocol versions the core serves over stdio.
var Supported = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// maxDepth is the core's limit on nesting (mcp.MaxDepth).
const maxDepth = 64

// Metadata keys of protocol 2026-07-28's requests and answers.
const (
	metaVersion      = "io.modelcontextprotocol/protocolVersion"
	metaClientInfo   = "io.modelcontextprotocol/clientInfo"
	metaCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaServerInfo   = "io.modelcontextprotocol/serverInfo"
)

// Answer returns the line (without its line end) that answers request,
// when request opens a session in a way the core would answer with the
// same result. That is one JSON-RPC 2.0 request object with a number id
// or a string id of valid UTF-8, and either
//   - method "initialize", with params holding a protocolVersion of
//     Versions, a capabilities object and a clientInfo object with a
//     string name and version; or
//   - method "server/discover" (protocol 2026-07-28's opening), with
//     params._meta giving DiscoverVersion as the protocol version, the
//     client's capabilities as an object of objects and its info, when
//     present, as an object with a string name and version.
//
// Anything else (a malformed line, another method, a version to negotiate)
// is not answered: ok is false and the core sees the request as sent.
func Answer(request []byte, srv Server) (answer []byte, ok bool) {
	if !json.Valid(request) || Depth(request) > maxDepth {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(request, &m) != nil {
		return nil, false
	}
	id := m["id"]
	if len(id) == 0 || !(id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9')) || !utf8.Valid(id) {
		return nil, false // echoed, an id of bytes that are not UTF-8 would not be JSON: the core refuses it
	}
	params := m["params"]
	if string(m["jsonrpc"]) != `"2.0"` || len(params) == 0 || params[0] != '{' {
		return nil, false
	}
	var result any
	switch string(m["method"]) {
	case `"initialize"`:
		version, ok := initializeVersion(params)
		if !ok {
			return nil, false
		}
		result = initializeResult{
			Capabilities:    served,
			Instructions:    srv.Instructions,
			ProtocolVersion: version,
			ServerInfo:      serverInfo{Name: "clumsies", Title: "clumsies", Version: srv.Version},
		}
	case `"server/discover"`:
		if !discoverable(params) {
			return nil, false
		}
		result = discoverResult{
			ResultType:        "complete",
			Meta:              discoverMeta{ServerInfo: serverInfo{Name: "clumsies", Title: "clumsies", Version: srv.Version}},
			CacheScope:        "public",
			SupportedVersions: Supported,
			Capabilities:      served,
			Instructions:      srv.Instructions,
		}
	default:
		return nil, false
	}
	return encodeAnswer(id, result)
}

// initializeVersion returns the protocol version of initialize params the
// front answers.
func initializeVersion(params json.RawMessage) (string, bool) {
	var p struct {
		ProtocolVersion *string                    `json:"protocolVersion"`
		Capabilities    map[string]json.RawMessage `json:"capabilities"`
		ClientInfo      *struct {
			Name    *string `json:"name"`
			Version *string `json:"version"`
		} `json:"clientInfo"`
	}
	if json.Unmarshal(params, &p) != nil || p.ProtocolVersion == nil || !slices.Contains(Versions, *p.ProtocolVersion) ||
		p.Capabilities == nil || p.ClientInfo == nil || p.ClientInfo.Name == nil || p.ClientInfo.Version == nil {
		return "", false
	}
	for _, v := range p.Capabilities {
		if !isObject(v) {
			return "", false
		}
	}
	return *p.ProtocolVersion, true
}

// discoverable reports whether server/discover params are ones the front
// answers.
func discoverable(params json.RawMessage) bool {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil || string(p.Meta[metaVersion]) != `"`+DiscoverVersion+`"` {
		return false
	}
	var caps map[string]json.RawMessage
	if v := p.Meta[metaCapabilities]; !isObject(v) || json.Unmarshal(v, &caps) != nil {
		return false
	}
	for _, v := range caps {
		if !isObject(v) {
			return false
		}
	}
	if v, ok := p.Meta[metaClientInfo]; ok && !isObject(v) {
		return false
	}
	if v, ok := p.Meta[metaClientInfo]; ok {
		var info struct {
			Name    *string `json:"name"`
			Version *string `json:"version"`
		}
		if json.Unmarshal(v, &info) != nil || info.Name == nil || info.Version == nil {
			return false
		}
	}
	return true
}

func isObject(v json.RawMessage) bool { return len(v) > 0 && v[0] == '{' }

// initializeResult is initialize's result as the core's SDK writes it (its
// fields in the same order).
type initializeResult struct {
	Capabilities    capabilities `json:"capabilities"`
	Instructions    string       `json:"instructions,omitempty"`
	ProtocolVersion string       `json:"protocolVersion"`
	ServerInfo      serverInfo   `json:"serverInfo"`
}

// discoverResult is server/discover's result as the core's SDK writes it.
type discoverResult struct {
	ResultType        string       `json:"resultType"`
	Meta              discoverMeta `json:"_meta"`
	TTLMs             int          `json:"ttlMs"`
	CacheScope        string       `json:"cacheScope"`
	SupportedVersions []string     `json:"supportedVersions"`
	Capabilities      capabilities `json:"capabilities"`
	Instructions      string       `json:"instructions,omitempty"`
}

type discoverMeta struct {
	ServerInfo serverInfo `json:"io.modelcontextprotocol/serverInfo"`
}

// served is what the server serves: tools, and prompts whose list
// changes (the workflows).
var served = func() capabilities {
	var c capabilities
	c.Prompts.ListChanged = true
	return c
}()

type capabilities struct {
	Prompts struct {
		ListChanged bool `json:"listChanged"`
	} `json:"prompts"`
	Tools struct{} `json:"tools"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	Version string `json:"version"`
}

// encodeAnswer encodes a JSON-RPC answer with the request's id as sent.
func encodeAnswer(id json.RawMessage, result any) ([]byte, bool) {
	msg := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(msg) != nil {
		return nil, false
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), true
}

// Depth returns the deepest nesting of arrays and objects in valid JSON.
// The core's stdio transport refuses a message nested deeper than its
// limit with it, so that the front refuses what the core refuses.
func Depth(b []byte) int {
	d, max, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			d++
			if d > max {
				max = d
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return max
}
