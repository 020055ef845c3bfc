package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/clumsies/clumsies/projections"
)

// complianceJSON is the "compliance" part of `clumsies stats --json`: what
// the adapters' hooks and the agents' calls show of each session's
// discipline, overall and per session.
type complianceJSON struct {
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
	Compliant int                     `json:"compliant"`
	Sessions  []sessionComplianceJSON `json:"sessions"`
}

type sessionComplianceJSON struct {
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
	// Unsupported counts refs claimed without evidence (evidence.go);
	// a session with one is not compliant.
	Unsupported uint64 `json:"unsupported"`
	Compliant   bool   `json:"compliant"`
}

func complianceOf(cs []projections.Compliance, ev evidenceJSON) complianceJSON {
	out := complianceJSON{Sessions: []sessionComplianceJSON{}}
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
		out.Sessions = append(out.Sessions, sessionComplianceJSON{ID: c.ID, Host: c.Host, HookStarts: c.HookStarts,
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

func printCompliance(w io.Writer, c complianceJSON) error {
	if len(c.Sessions) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nCompliance: %d sessions announced by hooks, %d set up with the announced id, %d invented ids; "+
		"%d of %d prompts answered by a report; %d stops blocked; %d compliant sessions\n\n",
		c.HookSessions, c.SetupWithHookID, c.InventedIDs, c.Answered, c.Prompts, c.StopsBlocked, c.Compliant)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tHOST\tHOOK\tSETUP\tPROMPTS\tANSWERED\tREFS\tBLOCKED\tEDITS\tIN SCOPE\tLOADED\tFLAG")
	for _, s := range c.Sessions {
		flag := ""
		switch {
		case s.InventedID:
			flag = "invented id"
		case s.HookStarts > 0 && s.Setups == 0:
			flag = "no memsetup"
		case s.Prompts > s.Answered:
			flag = "unreported prompts"
		case s.Unsupported > 0:
			flag = "claimed without evidence"
		case s.Compliant:
			flag = "ok"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", s.ID, s.Host, s.HookStarts, s.Setups, s.Prompts,
			s.Answered, s.Refs, s.StopsBlocked, s.Edits, s.RulesInScope, s.RulesLoaded, flag)
	}
	return tw.Flush()
}
