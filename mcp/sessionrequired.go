package mcp

import (
	"strconv"

	"github.com/clumsies/clumsies/events"
)

// requireSession fails session_required when the call runs in no
// session. The message says why, as the transport sees it: a connection
// that keeps its session (stdio, an HTTP session) never reads the
// session_id argument, so an id given there is not what is missing; over
// stateless HTTP the id given is one no memsetup of this server set up.
func requireSession(c *call) error {
	if c.session != "" {
		return nil
	}
	if c.refused != nil {
		return c.refused
	}
	return toolErr(events.CodeSessionRequired, "%s", sessionRequiredMessage(c))
}

const msgCallMemsetup = "call memsetup first, with session_id set to the real session or thread id your host gave you (never invent one), then repeat this call"

func sessionRequiredMessage(c *call) string {
	given, hasArg := sessionArg(c.raw)
	switch {
	case !stateless(c) && hasArg:
		return "this connection has no session yet: it keeps the session its own memsetup binds, and does not read the session_id argument (" +
			quote(given) + " was not looked at; it is read only over HTTP at protocol " + statelessVersion + "). " +
			"Call memsetup on this connection with session_id " + quote(given) + " first, then repeat this call (session_id may be left out)"
	case !stateless(c):
		return "no session yet: " + msgCallMemsetup
	case hasArg:
		return "session_id " + quote(given) + " names no session that memsetup set up on this server (this request keeps no session: HTTP at protocol " +
			statelessVersion + "). Call memsetup with that session_id (and the session_secret you were given), then repeat this call with the same session_id and session_secret"
	}
	return "no session: this request keeps none (HTTP at protocol " + statelessVersion + "), so every call names its session. " +
		msgCallMemsetup + " with session_id, the id you gave memsetup (and session_secret, the secret you were given)"
}

// stateless reports whether c came over a connection that keeps no
// session between requests.
func stateless(c *call) bool { return c.stateless }

// quote quotes an id for a message, cut to the longest valid id.
func quote(s string) string {
	if len(s) > events.MaxSessionID {
		return strconv.Quote(s[:events.MaxSessionID]) + "..."
	}
	return strconv.Quote(s)
}
