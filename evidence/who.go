package evidence

import (
	"cmp"

	"github.com/clumsies/clumsies/events"
)

// Who ran a session, beside its host (SawHost): the model its
// session-start hook named, and the MCP client its memsetup named (the
// only name an MCP-only host, one without hooks, gives).

// SawStart folds a session start: the host and the model its hook named;
// the first of each is the session's.
func (r *Row) SawStart(d *events.SessionStartData) {
	r.SawHost(d.Host)
	if r.Model == "" {
		r.Model = d.Model
	}
}

// SawSetup folds a successful memsetup: the MCP client that set the
// session up, the first one.
func (r *Row) SawSetup(d *events.SetupData) {
	if r.Client == "" && d.Client != nil {
		r.Client = d.Client.Name
	}
}

// HostOrClient is the host a session ran on as far as anything named it:
// its hooks' host, else its MCP client.
func (s Session) HostOrClient() string { return cmp.Or(s.Host, s.Client) }
