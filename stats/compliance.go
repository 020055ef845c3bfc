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
	// announced id, answered every prompt, claimed nothing without
	// evidence and, where the gate is on, made no in-scope change before
	// loading the rules (Enforce).
	Compliant int `json:"compliant"`
	// Enforce is the workspace's [enforce] mode as config.toml says when
	// the stats are read: off, warn or block. In warn and block a session
	// with an ungated change is not compliant.
	Enforce  string              `json:"enforce"`
	Sessions []SessionCompliance `json:"sessions"`
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
	// NoHostEvidence is set when the session's host records no file
	// edits (evidence.Session): its claims were not judged against
	// touched files ("no evidence on this host").
	NoHostEvidence bool `json:"noHostEvidence"`
	// GateFigures are what the gates recorded of the session: denials,
	// warnings, unchecked, ungated, protectedGated, protectedChanges,
	// stopGateBlocks. With the gate on (Compliance.Enforce warn or
	// block) a session with an ungated change is not compliant.
	projections.GateFigures
	Compliant bool `json:"compliant"`
}

// Enforcing reports whether mode, an [enforce] mode, turns the gate on:
// warn or block.
func Enforcing(mode string) bool { return mode == "warn" || mode == "block" }

// complianceOf counts the sessions' compliance: a session is compliant
// when its facts say so (projections.Compliance.Compliant), it claimed
// nothing without evidence and, with the workspace's gate on (enforce
// warn or block), it made no in-scope change before loading the rules in
// scope (an ungated change, attest.file_edit's unloaded).
func complianceOf(cs []projections.Compliance, ev Evidence, enforce string) Compliance {
	if enforce == "" {
		enforce = "off"
	}
	out := Compliance{Enforce: enforce, Sessions: []SessionCompliance{}}
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
		compliant := c.Compliant() && e.Unsupported == 0 && !(Enforcing(enforce) && e.Gate.Ungated > 0)
		if compliant {
			out.Compliant++
		}
		out.Prompts += c.Prompts
		out.Answered += c.Answered
		out.StopsBlocked += c.StopsBlocked
		out.Sessions = append(out.Sessions, SessionCompliance{ID: c.ID, Host: c.Host, HookStarts: c.HookStarts,
			Setups: c.Setups, InventedID: c.InventedID, Prompts: c.Prompts, Answered: c.Answered, Refs: c.Refs,
			StopsBlocked: c.StopsBlocked, Edits: e.Edits, Unsupported: e.Unsupported, NoHostEvidence: e.NoHostEvidence,
			GateFigures: e.Gate, Compliant: compliant})
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
