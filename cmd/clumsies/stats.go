package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/clumsies/clumsies/dash"
	"github.com/clumsies/clumsies/dayrange"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
)

// StatsCommand prints usage and tool metrics.
type StatsCommand struct {
	m     *Main
	ws    wsFlags
	json  bool
	since string
	until string
	days  int
}

// statsJSON is the stable shape of `clumsies stats --json`. Fields may be
// added; none may change.
type statsJSON struct {
	WorkspaceID string `json:"workspaceId"`
	// Range is the range of days counted (--since, --until, --days):
	// absent for all time. See dash/ranged.go for what it holds.
	Range  *dayrange.Range `json:"range,omitempty"`
	Events uint64          `json:"events"`
	// Sessions counts the sessions set up (a successful memsetup bound
	// them); SessionsHooksOnly those a host hook saw that never set up
	// (events.SessionKind).
	Sessions          int           `json:"sessions"`
	SessionsHooksOnly int           `json:"sessionsHooksOnly"`
	Rules             []ruleJSON    `json:"rules"`
	Tools             []toolJSON    `json:"tools"`
	Drafts            int           `json:"drafts"`
	Objects           int           `json:"objects"`
	SessionList       []sessionJSON `json:"sessionList"`
	// Compliance is what the adapters' hooks show (compliance.go).
	Compliance complianceJSON `json:"compliance"`
	// Evidence is what the post-tool hooks show (evidence.go).
	Evidence evidenceJSON `json:"evidence"`
}

type ruleJSON struct {
	ID          string           `json:"id"`
	Path        string           `json:"path"`
	Kind        string           `json:"kind"`
	Source      string           `json:"source,omitempty"` // "team" for a rule of the team's catalog
	Refs        uint64           `json:"refs"`
	Constraints []constraintJSON `json:"constraints"`
}

type constraintJSON struct {
	ID   string `json:"id"`
	Refs uint64 `json:"refs"`
}

type toolJSON struct {
	Tool   string `json:"tool"`
	Calls  uint64 `json:"calls"`
	Errors uint64 `json:"errors"`
	AvgUs  uint64 `json:"avgUs"`
	MaxUs  uint64 `json:"maxUs"`
}

type sessionJSON struct {
	ID      string `json:"id"`
	First   string `json:"first"`
	Last    string `json:"last"`
	Calls   uint64 `json:"calls"`
	Kind    string `json:"kind"` // setUp, hooksOnly or other
	Refs    uint64 `json:"refs"`
	Reports uint64 `json:"reports"`
	Rejects uint64 `json:"rejects"`
}

// Run implements command.
func (c *StatsCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("stats", "stats [--workspace DIR] [--days N | --since YYYY-MM-DD --until YYYY-MM-DD] [--json]")
	rangeFlags(fs, &c.since, &c.until, &c.days)
	h, err := c.m.attachData(ctx, fs, args, &c.ws, &c.json, "print JSON")
	if err != nil {
		return err
	}
	defer h.Close()
	rg, err := dayrange.Of(c.since, c.until, c.days, time.Now())
	if err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	s, err := h.Stats(ctx)
	if err != nil {
		return err
	}
	st := statsOf(h.Workspace().ID(), s, rg)
	if c.json {
		enc := json.NewEncoder(c.m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	return printStats(c.m.Stdout, st)
}

func collectStats(wsID string, s *projections.Store) statsJSON {
	return statsOf(wsID, node.StatsOf(s), dayrange.Range{})
}

// statsOf gives the stats of s in rg: with a range, the events, the
// rules' refs, the sessions (those first seen in it) with their
// compliance and evidence count in it; the constraints' refs and the
// tools are over all time (the read models do not keep them per day).
func statsOf(wsID string, s node.Stats, rg dayrange.Range) statsJSON {
	sum := s.Summary
	sessions := dash.SessionsIn(s.Sessions, rg)
	evidence := dash.EvidenceOf(s.Evidence, sessions)
	st := statsJSON{WorkspaceID: wsID, Events: sum.Events, Sessions: sum.Sessions, SessionsHooksOnly: sum.SessionsHooksOnly, Drafts: sum.Drafts, Objects: sum.Objects,
		Rules: []ruleJSON{}, Tools: []toolJSON{}, SessionList: []sessionJSON{}, Evidence: evidenceOf(evidence)}
	compliance := s.Compliance
	if !rg.All() {
		st.Range = &rg
		st.Events = dash.SumDays(s.Days, rg).Events
		st.Sessions, st.SessionsHooksOnly = dash.Kinds(sessions)
		compliance = dash.OfSessions(compliance, sessions, func(c projections.Compliance) string { return c.ID })
	}
	st.Compliance = complianceOf(compliance, st.Evidence)
	for _, u := range s.Usage {
		refs := u.Refs
		if !rg.All() {
			refs = dash.SumDays(s.RuleDays[u.ID], rg).Refs
		}
		r := ruleJSON{ID: u.ID, Path: u.Path, Kind: string(u.Kind), Source: u.Source, Refs: refs, Constraints: []constraintJSON{}}
		for _, c := range u.Constraints {
			r.Constraints = append(r.Constraints, constraintJSON{ID: c.ID, Refs: c.Refs})
		}
		st.Rules = append(st.Rules, r)
	}
	for _, t := range s.Tools {
		st.Tools = append(st.Tools, toolJSON{Tool: t.Tool, Calls: t.Calls, Errors: t.Errors, AvgUs: t.AvgUs(), MaxUs: t.MaxUs})
	}
	for _, se := range sessions {
		st.SessionList = append(st.SessionList, sessionJSON{ID: se.ID, First: se.First, Last: se.Last, Calls: se.Calls, Kind: se.Kind().String(), Refs: se.Refs, Reports: se.Reports, Rejects: se.Rejects})
	}
	return st
}

func printStats(w io.Writer, st statsJSON) error {
	if st.Range != nil {
		fmt.Fprintf(w, "%s (UTC days)\n", st.Range)
	}
	fmt.Fprintf(w, "Workspace %s: %d events, %d sessions set up (%d more seen by hooks only), %d published objects, %d drafts\n\n",
		st.WorkspaceID, st.Events, st.Sessions, st.SessionsHooksOnly, st.Objects, st.Drafts)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tKIND\tREFS\tCONSTRAINT\tREFS")
	for _, r := range st.Rules {
		fmt.Fprintf(tw, "%s\t%s\t%d\t\t\n", r.Path, r.Kind, r.Refs)
		for _, c := range r.Constraints {
			fmt.Fprintf(tw, "\t\t\t%s\t%d\n", c.ID, c.Refs)
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tCALLS\tERRORS\tAVG µs\tMAX µs")
	for _, t := range st.Tools {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\n", t.Tool, t.Calls, t.Errors, t.AvgUs, t.MaxUs)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := printCompliance(w, st.Compliance); err != nil {
		return err
	}
	return printEvidence(w, st.Evidence, st.Rules)
}
