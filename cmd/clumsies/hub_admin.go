package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// HubInviteCommand prints a one-time join token, or one per row of a
// file (--from).
type HubInviteCommand struct {
	m    *Main
	hub  hubFlags
	json bool
}

// Run implements command.
func (c *HubInviteCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hub invite", "hub invite --workspace ws-... --team T [--member M] | --from FILE [--hub DIR | --url URL --token T] [--json]")
	var req hubwire.InviteRequest
	var from string
	fs.StringVar(&req.WorkspaceID, "workspace", "", "the `id` of the workspace to join (workspace_id in its .clumsies/config.toml)")
	fs.StringVar(&req.Team, "team", "", "the `team` the workspace belongs to")
	fs.StringVar(&req.Member, "member", "", "the `member` who joins with this token (counted in stats per member)")
	fs.StringVar(&from, "from", "", "make one token per row of the CSV file at `FILE` (- for stdin): workspace,team[,member], one row per clone that joins; prints workspace,team,member,token")
	c.hub.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	if _, err := parsePositional(fs, args, 0); err != nil {
		return err
	}
	if from != "" {
		if req != (hubwire.InviteRequest{}) {
			return fmt.Errorf("%w: hub invite takes --from FILE or --workspace, --team and --member, not both", errUsage)
		}
		return c.fromFile(ctx, from)
	}
	if req.WorkspaceID == "" || req.Team == "" {
		return fmt.Errorf("%w: hub invite needs --workspace ws-... and --team T (or --from FILE for many)", errUsage)
	}
	cl, err := c.hub.client()
	if err != nil {
		return err
	}
	token, err := cl.Invite(ctx, req)
	if err != nil {
		return err
	}
	out := hubwire.TokenAnswer{Token: token}
	if c.json {
		return printJSON(c.m.Stdout, out)
	}
	fmt.Fprintf(c.m.Stdout, "%s\n", out.Token)
	fmt.Fprintf(c.m.Stderr, "One-time join token for %s (team %s). In a clone of that workspace run:\n  clumsies hub join TOKEN\n", req.WorkspaceID, req.Team)
	return nil
}

// fromFile makes a token for each row of the file at path, every row
// checked first, and prints those made, even when the hub stops it
// half-way.
func (c *HubInviteCommand) fromFile(ctx context.Context, path string) error {
	r, closeFile, err := openInviteFile(path, c.m.Stdin)
	if err != nil {
		return err
	}
	name := path
	if path == "-" {
		name = "stdin"
	}
	rows, err := readInviteRows(r, name)
	closeFile()
	if err != nil {
		return err
	}
	cl, err := c.hub.client()
	if err != nil {
		return err
	}
	made, ierr := inviteAll(ctx, cl, rows, name)
	if len(made) > 0 || ierr == nil {
		if err := printInvites(c.m.Stdout, made, c.json); err != nil {
			return err
		}
	}
	if ierr != nil {
		return ierr
	}
	if !c.json {
		fmt.Fprintf(c.m.Stderr, "%d one-time join tokens, valid 7 days. Give each to the person whose clone it names; in that clone run:\n  clumsies hub join TOKEN\n", len(made))
	}
	return nil
}

// HubNodesCommand lists the joined nodes.
type HubNodesCommand struct {
	m    *Main
	hub  hubFlags
	json bool
}

// Run implements command.
func (c *HubNodesCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hub nodes", "hub nodes [--hub DIR | --url URL --token T] [--json]")
	c.hub.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	if _, err := parsePositional(fs, args, 0); err != nil {
		return err
	}
	cl, err := c.hub.client()
	if err != nil {
		return err
	}
	nodes, err := cl.Nodes(ctx)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(c.m.Stdout, nodes)
	}
	tw := tabwriter.NewWriter(c.m.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NODE\tTEAM\tWORKSPACE\tMEMBER\tLINK\tSINCE")
	for _, n := range nodes {
		link := "down"
		switch {
		case !n.Active():
			link = "revoked"
		case n.Link.Up:
			link = "up"
		}
		since := "-"
		if !n.Link.Since.IsZero() {
			since = n.Link.Since.Local().Format(time.DateTime)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", n.ID, n.Team, wsLabel(n.Workspace, n.WorkspaceName), n.Member, link, since)
	}
	return tw.Flush()
}

// HubRevokeCommand revokes a node.
type HubRevokeCommand struct {
	m    *Main
	hub  hubFlags
	json bool
}

// Run implements command.
func (c *HubRevokeCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hub revoke", "hub revoke NODE [--hub DIR | --url URL --token T] [--json]")
	c.hub.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	pos, err := parsePositional(fs, args, 1)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: hub revoke needs the node id (see clumsies hub nodes)", errUsage)
	}
	cl, err := c.hub.client()
	if err != nil {
		return err
	}
	n, err := cl.Revoke(ctx, pos[0])
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(c.m.Stdout, n)
	}
	fmt.Fprintf(c.m.Stdout, "Revoked node %s (workspace %s, team %s); its link is refused from now on.\n", n.ID, n.Workspace, n.Team)
	return nil
}

// HubTokenCommand makes a member token.
type HubTokenCommand struct {
	m    *Main
	hub  hubFlags
	json bool
}

// Run implements command.
func (c *HubTokenCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hub token", "hub token --name N --team T[,T...] [--reviewer] [--hub DIR | --url URL --token T] [--json]")
	var name, teams string
	var reviewer bool
	fs.StringVar(&name, "name", "", "who the token is for")
	fs.StringVar(&teams, "team", "", "the `teams` (comma-separated) whose stats and catalogs the token may read")
	fs.BoolVar(&reviewer, "reviewer", false, "the token may also accept and decline the drafts submitted to its teams' catalogs")
	c.hub.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	if _, err := parsePositional(fs, args, 0); err != nil {
		return err
	}
	if name == "" || teams == "" {
		return fmt.Errorf("%w: hub token needs --name and --team", errUsage)
	}
	cl, err := c.hub.client()
	if err != nil {
		return err
	}
	token, err := cl.MemberToken(ctx, hubwire.TokenRequest{Name: name, Teams: strings.Split(teams, ","), Reviewer: reviewer})
	if err != nil {
		return err
	}
	out := hubwire.TokenAnswer{Token: token}
	if c.json {
		return printJSON(c.m.Stdout, out)
	}
	fmt.Fprintln(c.m.Stdout, out.Token)
	return nil
}

// HubStatsCommand prints the hub's stats.
type HubStatsCommand struct {
	m    *Main
	hub  hubFlags
	json bool
}

// Run implements command.
func (c *HubStatsCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hub stats", "hub stats [--period daily|weekly|monthly] [--days N | --since YYYY-MM-DD --until YYYY-MM-DD] [--workspace ws-...] [--rule ID] [--team T] [--member M] [--hub DIR | --url URL --token T] [--json]")
	var period, ws, rule, team, member, since, until string
	var days int
	fs.StringVar(&period, "period", "daily", "group the trend by `period`: daily, weekly or monthly")
	rangeFlags(fs, &since, &until, &days)
	fs.StringVar(&ws, "workspace", "", "only the workspace with this `id`")
	fs.StringVar(&rule, "rule", "", "only the rule with this `id`")
	fs.StringVar(&team, "team", "", "only this `team`")
	fs.StringVar(&member, "member", "", "only the nodes of this `member`")
	c.hub.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	if _, err := parsePositional(fs, args, 0); err != nil {
		return err
	}
	if _, err := dayRange(fs, since, until, days, time.Now()); err != nil {
		return err
	}
	cl, err := c.hub.client()
	if err != nil {
		return err
	}
	st, err := cl.Stats(ctx, hubwire.StatsQuery{Period: period, Days: days, Since: since, Until: until, Workspace: ws, Rule: rule, Team: team, Member: member})
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(c.m.Stdout, st)
	}
	return printHubStats(c.m.Stdout, st)
}

func printHubStats(w interface{ Write([]byte) (int, error) }, st hubwire.Stats) error {
	t := st.Totals
	fmt.Fprintf(w, "%s to %s: %d events, %d refs, %d loads, %d sessions set up (%d more seen by hooks only), %d reports; %d workspaces, %d nodes, %d members, %d active days\n",
		st.From, st.To, t.Events, t.Refs, t.Loads, t.Sessions, t.SessionsHooksOnly, t.Reports, t.Workspaces, t.Nodes, t.Members, t.ActiveDays)
	fmt.Fprintf(w, "Coverage: %d of %d published rules referred (%.0f%%), %d of %d of their constraints (%.0f%%), %d unlisted ids referred\n\n",
		st.Coverage.Referred, st.Coverage.Published, 100*st.Coverage.Ratio,
		st.Coverage.ConstraintsReferred, st.Coverage.Constraints, 100*st.Coverage.ConstraintRatio, st.Coverage.Unlisted)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOP RULE\tWORKSPACE\tREFS")
	for _, r := range st.TopRules {
		path := r.Path
		switch {
		case r.Removed:
			path += " (removed)"
		case path == "":
			path = r.ID + " (unlisted)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\n", path, wsLabel(r.WorkspaceID, st.WorkspaceNames[r.WorkspaceID]), r.Refs)
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PERIOD\tEVENTS\tREFS\tLOADS\tSESSIONS\tREPORTS")
	quiet := 0
	for _, p := range st.Trend {
		if p.Events == 0 && p.Refs == 0 && p.Loads == 0 && p.Sessions == 0 && p.Reports == 0 {
			quiet++ // a period without events is left out of the table
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\n", p.Period, p.Events, p.Refs, p.Loads, p.Sessions, p.Reports)
	}
	tw.Flush()
	if quiet > 0 {
		fmt.Fprintf(w, "(%s of %d without events left out; --json lists them all)\n", count(quiet, "period"), len(st.Trend))
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TEAM\tMEMBER\tEVENTS\tREFS\tSESSIONS\tACTIVE DAYS\tEDITS\tIN SCOPE\tLOADED\tREFERENCED\tUNSUPPORTED\tHOSTS\tMODELS")
	for _, m := range st.Members {
		e := m.Evidence
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n", m.Team, m.Member, m.Events, m.Refs, m.Sessions, m.ActiveDays,
			e.Edits, e.InScope, e.Loaded, e.Referenced, e.Unsupported, listOrDash(m.Hosts), listOrDash(m.Models))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := printHubEvidence(w, st.Evidence); err != nil {
		return err
	}
	return printHubChecks(w, st.Evidence.Checks)
}

// listOrDash joins names with commas, or says "–" for none.
func listOrDash(names []string) string {
	if len(names) == 0 {
		return "–"
	}
	return strings.Join(names, ",")
}
