package mcp

import (
	"context"
	"fmt"
	"slices"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A session is bound to whoever set it up: the host's session-start hook
// hands the agent a secret with its id (the ledger keeps its hash), or,
// where no hook ran, the session's first memsetup issues one. A memsetup
// of the session from a connection not bound to it must present one of
// its secrets; so must every call over a connection that keeps no
// session (sessionarg.go). A session set up before sessions were bound
// has no secret and keeps working, unbound: its events say so.

// binding returns what is known of session id's binding: what the ledger
// says (the Catalog, caught up) and what this server's own memsetups
// learnt and may not have reached the read models yet.
func (s *Server) binding(ctx context.Context, id string) (projections.SessionBinding, error) {
	b, err := s.cfg.Catalog.SessionBinding(ctx, id)
	if err != nil {
		return b, fmt.Errorf("read the binding of session %s: %w", id, err)
	}
	if local, ok := s.sessions.known(id); ok {
		b.SetUp = true
		for _, sec := range local.Secrets {
			if !slices.Contains(b.Secrets, sec) {
				b.Secrets = append(b.Secrets, sec)
			}
		}
	}
	return b, nil
}

// admission is how a memsetup from a connection not yet bound binds its
// session: how the session is bound (by), the secret it issues the agent
// (issued, for a session no hook handed one), the secret the session was
// admitted with, and whether the ledger has yet to learn its hash (newHash:
// a session never set up).
type admission struct {
	by, issued string
	sec        projections.SessionSecret
	newHash    bool
}

// admit decides whether a memsetup of session id that presents secret
// (given: whether it presents one) may bind it.
func (s *Server) admit(ctx context.Context, id, secret string, given bool) (admission, error) {
	b, err := s.binding(ctx, id)
	if err != nil {
		return admission{}, err
	}
	switch {
	case len(b.Secrets) > 0 && !given:
		return admission{}, toolErr(events.CodeSessionConflict,
			"session %s is bound to whoever set it up: a memsetup from a new connection must pass session_secret, the secret your host's session-start hook "+
				"gave you with this id (or that memsetup returned as sessionSecret). If you have none, this is not your session: call memsetup with the id your own host gave you.", quote(id))
	case len(b.Secrets) > 0:
		by, ok := b.Match(secret)
		if !ok {
			return admission{}, toolErr(events.CodeSessionConflict,
				"the session_secret you passed is not the secret of session %s: pass the one your host's session-start hook gave you with this id "+
					"(or that memsetup returned). Do not use another session's id.", quote(id))
		}
		return admission{by: by, sec: projections.SessionSecret{Hash: events.SecretHash(secret), By: by}}, nil
	case b.SetUp:
		return admission{}, nil // set up before sessions were bound: it stays unbound
	case given:
		// A hook handed the agent this secret, but its event did not
		// reach the ledger: the session is the agent's.
		return admission{by: events.BoundByMemsetup, sec: projections.SessionSecret{Hash: events.SecretHash(secret), By: events.BoundByMemsetup}, newHash: true}, nil
	}
	issued := events.NewSessionSecret()
	return admission{by: events.BoundByMemsetup, issued: issued,
		sec: projections.SessionSecret{Hash: events.SecretHash(issued), By: events.BoundByMemsetup}, newHash: true}, nil
}

// stamp records on ev who made the call: the client's name, the
// connection's id (none over a connection that keeps no session), and
// whether its session is unbound.
func (s *Server) stamp(ev *events.Event, conn *mcp.ServerSession, client *mcp.Implementation, unbound bool) {
	if client != nil {
		ev.Client = clip(client.Name, maxClientName)
	}
	ev.Conn = s.sessions.connID(conn)
	ev.Unbound = unbound && ev.SessionID != ""
}

// maxClientName bounds the client name and version an event keeps.
const maxClientName = 256

// clip cuts s to at most n bytes, at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// clientInfo is what a memsetup records of the MCP client.
func clientInfo(c *mcp.Implementation) *events.ClientInfo {
	if c == nil || c.Name == "" {
		return nil
	}
	return &events.ClientInfo{Name: clip(c.Name, maxClientName), Version: clip(c.Version, maxClientName)}
}
