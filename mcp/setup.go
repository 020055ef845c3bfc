package mcp

import (
	"context"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// memsetup binds the connection to the agent's session and hands out the
// frame: the META_PROMPT, or the built-in protocol summary when the
// workspace has none (then mpf.hash is the summary's hash, so delta loading
// works the same either way).

const descSessionID = "The real session or thread id that your host (the agent adapter) gave you for this conversation. " +
	"Copy it exactly; never invent, guess or generate one. 1 to 128 characters from A-Z a-z 0-9 _ . : -"

func (s *Server) setupTool() *tool {
	return &tool{
		name:   "memsetup",
		title:  "Start a clumsies session",
		access: readOnly,
		typ:    events.TypeSetup,
		desc: "Start a clumsies session. Call it once, before any other clumsies tool, with the real host session id. " +
			"Returns the workspace id, the session id and the META_PROMPT frame (its content only when your known hash is out of date). " +
			"Follow the frame: discover, load, apply, refer, refine, submit.",
		input: object("",
			required("session_id", sessionIDSchema()),
			optional(argSessionSecret, setupSecretSchema()),
			required("knownHashes", object(`Hashes you already know. Must contain "META_PROMPT.md": the hash memsetup gave you before, or "" when you do not know it (the usual case).`,
				required(content.MetaPromptPath, str(`The META_PROMPT.md hash you remember, or "" when you do not know it.`)),
			)),
		),
		output: output("The session frame.",
			required("workspaceId", str("The workspace id.")),
			required("sessionId", str("The session this connection is bound to.")),
			optional("sessionSecret", str("Only when no host hook gave you a session secret: the secret this memsetup issued your session. "+
				"Keep it; pass it as session_secret to memsetup on a new connection, and with session_id over HTTP at protocol 2026-07-28. Never share it.")),
			required("mpf", openObject("The META_PROMPT frame.",
				required("hash", str("The current hash of the frame.")),
				required("content", nullableStr("The frame's text; null when your known hash is current.")),
				required("changed", boolean("False when your known hash is current.")),
			)),
		),
		run:    s.setup,
		commit: s.commitSetup,
	}
}

type setupResult struct {
	WorkspaceID   string    `json:"workspaceId"`
	SessionID     string    `json:"sessionId"`
	SessionSecret string    `json:"sessionSecret,omitempty"`
	MPF           mpfResult `json:"mpf"`
}

// setupSecretSchema is the schema of memsetup's optional session_secret.
func setupSecretSchema() *schema {
	s := nonEmpty(descSessionSecret + "Pass it whenever you have one; it is required to set up a session from a new connection once the session has a secret.")
	n := events.MaxSecret
	s.MaxLength = &n
	return s
}

type mpfResult struct {
	Hash    string  `json:"hash"`
	Content *string `json:"content"`
	Changed bool    `json:"changed"`
}

// setupState tells commitSetup which binding to undo when the event could
// not be recorded.
type setupState struct {
	id    string
	fresh bool
	sec   projections.SessionSecret // the secret to note once recorded
}

func (s *Server) setup(ctx context.Context, c *call) (any, entry, error) {
	e := entry{typ: events.TypeSetup}
	f, err := decodeObject(c.raw, "", "session_id", argSessionSecret, "knownHashes")
	if err != nil {
		return nil, e, err
	}
	id, err := f.sessionID()
	if err != nil {
		return nil, e, err
	}
	secret, err := f.str(argSessionSecret, false, false, events.MaxSecret)
	if err != nil {
		return nil, e, err
	}
	known, err := f.object("knownHashes", content.MetaPromptPath)
	if err != nil {
		return nil, e, err
	}
	if !known.has(content.MetaPromptPath) {
		return nil, e, invalidParams(known.at(content.MetaPromptPath),
			`knownHashes must contain "META_PROMPT.md": the hash you remember, or "" when you do not know it`)
	}
	knownHash, err := known.str(content.MetaPromptPath, true, false, 0)
	if err != nil {
		return nil, e, err
	}
	body, hash, _, err := s.frame(ctx)
	if err != nil {
		return nil, e, err
	}
	cur := s.sessions.of(c.conn)
	adm := admission{by: cur.by}
	if cur.id == "" {
		if adm, err = s.admit(ctx, id, secret, secret != ""); err != nil {
			return nil, e, err
		}
	}
	other, fresh := s.sessions.claim(c.conn, binding{id: id, by: adm.by})
	if other != "" {
		// The call belongs to the session the connection is bound to; the
		// refused id stays in the recorded arguments.
		e.sessionID = other
		return nil, e, toolErr(events.CodeSessionConflict,
			"this connection is already bound to session %q; one connection serves one session. Keep using %q, or open a new connection for the other session.",
			other, other)
	}
	c.state = setupState{id: id, fresh: fresh, sec: adm.sec}
	c.unbound = adm.by == ""
	changed := content.NormalizeHash(knownHash) != hash
	res := setupResult{WorkspaceID: s.cfg.WorkspaceID, SessionID: id, SessionSecret: adm.issued, MPF: mpfResult{Hash: hash, Changed: changed}}
	if changed {
		res.MPF.Content = &body
	}
	e.sessionID = id // a refused memsetup keeps the connection's session, or none
	data := events.SetupData{KnownHash: knownHash, Hash: hash, Changed: changed, Bound: adm.by, Client: clientInfo(c.client)}
	if adm.newHash {
		data.SecretHash = adm.sec.Hash
	}
	e.payload = data
	return res, e, nil
}

// commitSetup undoes a fresh binding whose event was not recorded, so the
// agent's retry starts from scratch.
// A recorded one sets its session up for the calls of connections that
// keep no session (sessionarg.go).
func (s *Server) commitSetup(c *call, recorded bool) {
	st, ok := c.state.(setupState)
	switch {
	case ok && recorded:
		s.sessions.noteSetUp(st.id, st.sec)
	case ok && st.fresh:
		s.sessions.release(c.conn)
	}
}
