package mcp

import (
	"encoding/json"
)

// A connection that keeps no session between requests (Streamable HTTP
// at protocol 2026-07-28, which is stateless: every request is a
// connection of its own) cannot stay bound to the agent session its
// memsetup named. On such a connection the agent names its session in
// every call: each tool but memsetup takes an optional session_id, the id
// a memsetup of this server set up. A connection bound to a session
// (stdio, a Streamable HTTP session) keeps using that one, whatever
// session_id says.

// argSessionID is the optional argument of every tool but memsetup.
const argSessionID = "session_id"

// sessionArgSchema is the schema of the optional session_id argument.
func sessionArgSchema() *schema {
	s := sessionIDSchema()
	s.Description = "Only over a connection that keeps no session (HTTP at protocol 2026-07-28, where a call answered session_required says so): the session_id you gave memsetup. Omit it otherwise."
	return s
}

// withSessionArg returns the input schema of a tool but memsetup: in,
// with the optional session_id added.
func withSessionArg(in *schema) *schema {
	if in == nil || in.Properties == nil {
		return in
	}
	out := *in
	ps := append(append(properties{}, *in.Properties...), optional(argSessionID, sessionArgSchema()))
	out.Properties = &ps
	return &out
}

// sessionArg returns the session_id argument of raw, if it holds one that
// is a string.
func sessionArg(raw json.RawMessage) (string, bool) {
	var args map[string]json.RawMessage
	if first(raw) != '{' || json.Unmarshal(raw, &args) != nil {
		return "", false
	}
	var id string
	if v, ok := args[argSessionID]; !ok || json.Unmarshal(v, &id) != nil || id == "" {
		return "", false
	}
	return id, true
}

// sessionOf returns the agent session a call of tool t on conn runs in:
// the one conn is bound to, else, for a tool but memsetup, the session_id
// argument when a memsetup of this server set that session up.
func (s *Server) sessionOf(t *tool, c *call) string {
	if id := s.sessions.of(c.conn); id != "" || t.name == "memsetup" {
		return id
	}
	if id, ok := sessionArg(c.raw); ok && s.sessions.wasSetUp(id) {
		return id
	}
	return ""
}
