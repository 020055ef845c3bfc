package mcp

import (
	"crypto/rand"
	"encoding/hex"
	"slices"
	"sync"

	"github.com/clumsies/clumsies/projections"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessions binds MCP connections to agent sessions: one connection (one
// *mcp.ServerSession: a stdio stream, an in-memory pipe, a Streamable HTTP
// session) binds at most one agent session, the one its first successful
// memsetup named. A connection is forgotten when it closes.
type sessions struct {
	mu    sync.Mutex
	bound map[*mcp.ServerSession]binding
	// conns holds the id this server gave each connection it saw a call
	// on (events.Event.Conn).
	conns map[*mcp.ServerSession]string
	// setUp holds the sessions a memsetup of this server set up, and the
	// secrets it saw them present or issued them, for the calls of
	// connections that keep no session (sessionarg.go) and for the next
	// memsetup (binding.go).
	setUp map[string]*projections.SessionBinding
}

// binding is the session a connection is bound to, and how that session
// is bound to whoever set it up ("" when it is not: set up before
// sessions were bound).
type binding struct {
	id, by string
}

// noteSetUp records that a memsetup set session id up, presenting or
// being issued the secret s (none for an unbound session).
func (s *sessions) noteSetUp(id string, sec projections.SessionSecret) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.setUp == nil {
		s.setUp = map[string]*projections.SessionBinding{}
	}
	b := s.setUp[id]
	if b == nil {
		b = &projections.SessionBinding{SetUp: true}
		s.setUp[id] = b
	}
	if sec.Hash != "" && !slices.Contains(b.Secrets, sec) {
		b.Secrets = append(b.Secrets, sec)
	}
}

// known returns what the memsetups of this server learnt of session id,
// and whether one set it up.
func (s *sessions) known(id string) (projections.SessionBinding, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.setUp[id]
	if !ok {
		return projections.SessionBinding{}, false
	}
	return projections.SessionBinding{SetUp: b.SetUp, Secrets: slices.Clone(b.Secrets)}, true
}

// of returns the session bound to conn, zero when none is.
func (s *sessions) of(conn *mcp.ServerSession) binding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bound[conn]
}

// claim binds conn to b unless it is bound to another session, which it
// returns. fresh reports whether this call made the binding, so that a
// caller whose call then fails can undo it with release.
func (s *sessions) claim(conn *mcp.ServerSession, b binding) (other string, fresh bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.bound[conn]; ok {
		if cur.id != b.id {
			return cur.id, false
		}
		return "", false
	}
	if s.bound == nil {
		s.bound = map[*mcp.ServerSession]binding{}
	}
	s.bound[conn] = b
	s.watch(conn)
	return "", true
}

// connID returns the id of conn, giving it one at its first call: "c-"
// and 16 hex digits. A nil conn has none.
func (s *sessions) connID(conn *mcp.ServerSession) string {
	if conn == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.conns[conn]; ok {
		return id
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	id := "c-" + hex.EncodeToString(b[:])
	if s.conns == nil {
		s.conns = map[*mcp.ServerSession]string{}
	}
	s.conns[conn] = id
	s.watch(conn)
	return id
}

// watch forgets conn when it closes. s.mu is held.
func (s *sessions) watch(conn *mcp.ServerSession) {
	_, bound := s.bound[conn]
	_, named := s.conns[conn]
	if conn == nil || (bound && named) {
		return // the first of the two started the watch
	}
	go func() {
		_ = conn.Wait()
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.bound, conn)
		delete(s.conns, conn)
	}()
}

// release undoes a fresh claim.
func (s *sessions) release(conn *mcp.ServerSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.bound, conn)
}

// count returns how many connections are bound.
func (s *sessions) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bound)
}
