package mcp

import (
	"context"
	"encoding/json"

	"github.com/clumsies/clumsies/events"
)

// A connection that keeps no session between requests (Streamable HTTP
// at protocol 2026-07-28, which is stateless: every request is a
// connection of its own) cannot stay bound to the agent session its
// memsetup named. On such a connection the agent names its session in
// every call: each tool but memsetup takes an optional session_id, the id
// a memsetup of this server set up, and session_secret, the secret the
// session was handed (binding.go). A connection bound to a session
// (stdio, a Streamable HTTP session) keeps using that one, whatever
// session_id says.

// The optional arguments of every tool but memsetup.
const (
	argSessionID     = "session_id"
	argSessionSecret = "session_secret"
)

// sessionMember reports whether name is one of the optional session
// arguments every tool takes.
func sessionMember(name string) bool { return name == argSessionID || name == argSessionSecret }

// sessionArgSchema is the schema of the optional session_id argument.
func sessionArgSchema() *schema {
	s := sessionIDSchema()
	s.Description = "Only over a connection that keeps no session (HTTP at protocol 2026-07-28, where a call answered session_required says so): the session_id you gave memsetup. Omit it otherwise."
	return s
}

// descSessionSecret tells the agent what session_secret is.
const descSessionSecret = "The session secret your host's session-start hook gave you with your session id, or that memsetup returned (sessionSecret) when no hook gave you one. " +
	"Copy it exactly; never share it or pass another session's. "

// secretArgSchema is the schema of the optional session_secret argument
// of every tool but memsetup.
func secretArgSchema() *schema {
	s := nonEmpty(descSessionSecret + "Only with session_id, over a connection that keeps no session (HTTP at protocol 2026-07-28). Omit it otherwise.")
	n := events.MaxSecret
	s.MaxLength = &n
	return s
}

// withSessionArg returns the input schema of a tool but memsetup: in,
// with the optional session_id and session_secret added.
func withSessionArg(in *schema) *schema {
	if in == nil || in.Properties == nil {
		return in
	}
	out := *in
	ps := append(append(properties{}, *in.Properties...), optional(argSessionID, sessionArgSchema()), optional(argSessionSecret, secretArgSchema()))
	out.Properties = &ps
	return &out
}

// stringArg returns the member name of raw, if it holds a non-empty
// string.
func stringArg(raw json.RawMessage, name string) (string, bool) {
	var args map[string]json.RawMessage
	if first(raw) != '{' || json.Unmarshal(raw, &args) != nil {
		return "", false
	}
	var v string
	if m, ok := args[name]; !ok || json.Unmarshal(m, &v) != nil || v == "" {
		return "", false
	}
	return v, true
}

// sessionArg returns the session_id argument of raw, if it holds one that
// is a string.
func sessionArg(raw json.RawMessage) (string, bool) { return stringArg(raw, argSessionID) }

// sessionOf sets the agent session a call of tool t on c runs in: the
// one c's connection is bound to, else, for a tool but memsetup, the
// session_id argument when a memsetup of this server set that session up
// and, for a bound session, session_secret is its secret. A call that
// names a bound session without its secret runs in none, and is refused
// with c.refused.
func (s *Server) sessionOf(ctx context.Context, t *tool, c *call) error {
	if b := s.sessions.of(c.conn); b.id != "" || t.name == "memsetup" {
		c.session, c.unbound = b.id, b.id != "" && b.by == ""
		return nil
	}
	id, ok := sessionArg(c.raw)
	if !ok {
		return nil
	}
	local, ok := s.sessions.known(id)
	if !ok {
		return nil
	}
	if len(local.Secrets) == 0 {
		c.session, c.unbound = id, true // set up before sessions were bound
		return nil
	}
	secret, given := stringArg(c.raw, argSessionSecret)
	if !given {
		c.refused = toolErr(events.CodeSessionConflict,
			"session %s is bound to whoever set it up: a call that names it with session_id must also pass session_secret, the secret "+
				"your host's session-start hook gave you (or memsetup returned). If you have none, this is not your session: use the id your own host gave you.", quote(id))
		return nil
	}
	if _, ok := local.Match(secret); !ok {
		b, err := s.binding(ctx, id)
		if err != nil {
			return err
		}
		if _, ok := b.Match(secret); !ok {
			c.refused = toolErr(events.CodeSessionConflict,
				"the session_secret you passed is not the secret of session %s: pass the one your host's session-start hook gave you with this id (or memsetup returned). "+
					"Do not use another session's id.", quote(id))
			return nil
		}
	}
	c.session = id
	return nil
}
