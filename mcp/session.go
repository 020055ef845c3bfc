package mcp

import (
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessions binds MCP connections to agent sessions: one connection (one
// *mcp.ServerSession: a stdio stream, an in-memory pipe, a Streamable HTTP
// session) binds at most one agent session, the one its first successful
// memsetup named. A connection is forgotten when it closes.
type sessions struct {
	mu    sync.Mutex
	bound map[*mcp.ServerSession]string
	// setUp holds the sessions a memsetup of this server set up, for the
	// calls of connections that keep no session (sessionarg.go).
	setUp map[string]struct{}
}

// noteSetUp records that a memsetup set session id up.
func (s *sessions) noteSetUp(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.setUp == nil {
		s.setUp = map[string]struct{}{}
	}
	s.setUp[id] = struct{}{}
}

// wasSetUp reports whether a memsetup of this server set session id up.
func (s *sessions) wasSetUp(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.setUp[id]
	return ok
}

// of returns the session bound to conn, "" when none is.
func (s *sessions) of(conn *mcp.ServerSession) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bound[conn]
}

// claim binds conn to id unless it is bound to another session, which it
// returns. fresh reports whether this call made the binding, so that a
// caller whose call then fails can undo it with release.
func (s *sessions) claim(conn *mcp.ServerSession, id string) (other string, fresh bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.bound[conn]; ok {
		if cur != id {
			return cur, false
		}
		return "", false
	}
	if s.bound == nil {
		s.bound = map[*mcp.ServerSession]string{}
	}
	s.bound[conn] = id
	if conn != nil {
		go func() {
			_ = conn.Wait()
			s.forget(conn)
		}()
	}
	return "", true
}

// release undoes a fresh claim.
func (s *sessions) release(conn *mcp.ServerSession) { s.forget(conn) }

func (s *sessions) forget(conn *mcp.ServerSession) {
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
