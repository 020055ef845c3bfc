package stats

import "github.com/clumsies/clumsies/projections"

// Compliance is the "compliance" part of `clumsies stats --json`: what
// the adapters' hooks and the agents' calls show of each session's
// discipline, overall and per session.
type Compliance struct {
	// HookSessions counts sessions a session-start hook announced.
	HookSessions int `json:"hookSessions"`
	// SetupWithHookID counts announced sessions whose agent called
	// memsetup with the announced id.
	SetupWithHookID int `json:"setupWithHookId"`
	// InventedIDs counts sessions whose memsetup used an id no hook had
	// announced (in a workspace whose hooks announce sessions).
	InventedIDs  int    `json:"inventedIds"`
	Prompts      uint64 `json:"prompts"`
	Answered     uint64 `json:"answered"`
	StopsBlocked uint64 `json:"stopsBlocked"`
	// Compliant counts sessions that were announced, set up with the
	// announced id, answered every prompt and claimed nothing without
	// evidence.
	Compliant int                 `json:"compliant"`
	Sessions  []SessionCompliance `json:"sessions"`
}

// SessionCompliance is the compliance of one session, with its evidence.
type SessionCompliance struct {
	ID           string `json:"id"`
	Host         string `json:"host,omitempty"`
	HookStarts   uint64 `json:"hookStarts"`
	Setups       uint64 `json:"setups"`
	InventedID   bool   `json:"inventedId"`
	Prompts      uint64 `json:"prompts"`
	Answered     uint64 `json:"answered"`
	Refs         uint64 `json:"refs"`
	StopsBlocked uint64 `json:"stopsBlocked"`
	// Edits counts the file edits the hooks recorded; RulesInScope the
	// rules in scope of them; RulesLoaded the rules the session loaded.
	Edits        uint64 `json:"edits"`
	RulesInScope int    `json:"rulesInScope"`
	RulesLoaded  int    `json:"rulesLoaded"`
	// Unsupported counts refs claimed without evidence (Evidence);
	// a session with one is not compliant.
	Unsupported uint64 `json:"unsupported"`
	Compliant   bool   `json:"compliant"`
}

// complianceOf counts the sessions' compliance: a session is compliant
// when its facts say so (projections.Compliance.Compliant) and it claimed
// nothing without evidence.
func complianceOf(cs []projections.Compliance, ev Evidence) Compliance {
	out := Compliance{Sessions: []SessionCompliance{}}
	for _, c := range cs {
		if c.HookStarts > 0 {
			out.HookSessions++
			if c.Setups > 0 {
				out.SetupWithHookID++
			}
		}
		if c.InventedID {
			out.InventedIDs++
		}
		e, _ := ev.session(c.ID)
		compliant := c.Compliant() && e.Unsupported == 0
		if compliant {
			out.Compliant++
		}
		out.Prompts += c.Prompts
		out.Answered += c.Answered
		out.StopsBlocked += c.StopsBlocked
		out.Sessions = append(out.Sessions, SessionCompliance{ID: c.ID, Host: c.Host, HookStarts: c.HookStarts,
			Setups: c.Setups, InventedID: c.InventedID, Prompts: c.Prompts, Answered: c.Answered, Refs: c.Refs,
			StopsBlocked: c.StopsBlocked, Edits: e.Edits, Unsupported: e.Unsupported, Compliant: compliant})
		s := &out.Sessions[len(out.Sessions)-1]
		for _, r := range e.Rules {
			if r.InScope > 0 {
				s.RulesInScope++
			}
			if r.Loaded {
				s.RulesLoaded++
			}
		}
	}
	return out
}
