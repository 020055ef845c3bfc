package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/workspace"
)

// AdaptCommand wires an agent host to the workspace: its MCP server entry
// and its hooks, merged into the host's own config files.
type AdaptCommand struct {
	m      *Main
	dir    string
	user   bool
	remove bool
	json   bool
}

// adaptJSON is the shape of `clumsies adapt HOST --json`.
type adaptJSON struct {
	Host    string         `json:"host"`
	Scope   adapt.Scope    `json:"scope"`
	Removed bool           `json:"removed"`
	Files   []adapt.Change `json:"files"`
	Notes   []string       `json:"notes"`
}

// hostJSON is one entry of `clumsies adapt --json`.
type hostJSON struct {
	Host      string      `json:"host"`
	Title     string      `json:"title"`
	SessionID string      `json:"sessionId"`
	Project   adapt.State `json:"project,omitempty"` // absent outside a workspace
	User      adapt.State `json:"user"`
}

// Run implements command.
func (c *AdaptCommand) Run(_ context.Context, args []string) error {
	fs := c.m.newFlags("adapt", "adapt [HOST] [--user] [--remove] [--json] [--workspace DIR]\n\nWith no HOST, lists the hosts and which are wired. HOST is one of "+strings.Join(adapt.Names(), ", "))
	fs.StringVar(&c.dir, "workspace", "", "workspace `DIR` (default: the nearest parent holding .clumsies/)")
	fs.BoolVar(&c.user, "user", false, "edit the user's global config of the host instead of the repository's")
	fs.BoolVar(&c.remove, "remove", false, "take out what adapt added, and nothing else")
	fs.BoolVar(&c.json, "json", false, "print JSON")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	var host string
	switch fs.NArg() {
	case 0:
	case 1:
		host = fs.Arg(0)
	default:
		return fmt.Errorf("%w: adapt takes one HOST, got %q (see clumsies adapt -h)", errUsage, strings.Join(fs.Args(), " "))
	}
	env, err := c.env()
	if err != nil {
		return err
	}
	if host == "" {
		if c.remove || c.user {
			return fmt.Errorf("%w: --remove and --user need a HOST (one of %s)", errUsage, strings.Join(adapt.Names(), ", "))
		}
		return c.list(env)
	}
	h, err := adapt.Lookup(host)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	scope := adapt.Project
	if c.user {
		scope = adapt.User
	} else if env.Root == "" {
		return fmt.Errorf("no clumsies workspace here: run `clumsies init --adapt %s` to create one and wire %s, or pass --workspace DIR (or --user for %s's global config)", host, h.Title, h.Title)
	}
	out, err := runAdapt(h, scope, env, c.remove)
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(c.m.Stdout, out)
	}
	printAdapt(c.m.Stdout, h, out)
	return nil
}

// env finds the workspace (if any) and the home folder.
func (c *AdaptCommand) env() (adapt.Env, error) {
	var env adapt.Env
	home, err := os.UserHomeDir()
	if err != nil {
		return env, fmt.Errorf("find the home folder: %w", err)
	}
	env.Home = home
	start := c.dir
	if start == "" {
		start = "."
	}
	root, err := workspace.Find(start)
	switch {
	case err == nil:
		env.Root = root
	case c.dir != "":
		return env, err
	case !errors.Is(err, workspace.ErrNotFound):
		return env, err
	}
	return env, nil
}

// runAdapt applies (or removes) the plan of h in scope.
func runAdapt(h *adapt.Host, scope adapt.Scope, env adapt.Env, remove bool) (adaptJSON, error) {
	p := h.Plan(scope, env)
	out := adaptJSON{Host: h.Name, Scope: scope, Removed: remove, Notes: p.Notes}
	var err error
	if remove {
		out.Notes = nil
		out.Files, err = p.Remove()
	} else {
		out.Files, err = p.Apply()
		if _, lerr := exec.LookPath("clumsies"); lerr != nil {
			out.Notes = append(out.Notes, "clumsies is not on PATH, and the host runs it by that name: put it on PATH (go install github.com/clumsies/clumsies/cmd/clumsies@latest, or a release archive).")
		}
	}
	if out.Files == nil {
		out.Files = []adapt.Change{}
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	if err != nil {
		return out, fmt.Errorf("adapt %s: %w", h.Name, err)
	}
	return out, nil
}

func printAdapt(w io.Writer, h *adapt.Host, out adaptJSON) {
	verb := "Wired"
	if out.Removed {
		verb = "Unwired"
	}
	fmt.Fprintf(w, "%s %s (%s scope):\n", verb, h.Title, out.Scope)
	for _, f := range out.Files {
		line := fmt.Sprintf("  %-9s %s", f.Action, f.Path)
		if f.Backup != "" {
			line += "  (previous bytes in " + filepath.Base(f.Backup) + ")"
		}
		fmt.Fprintln(w, line)
	}
	for _, n := range out.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if !out.Removed {
		fmt.Fprintf(w, "Restart %s to load it. Sessions are bound with %s.\n", h.Title, h.SessionID)
	}
}

// list prints every host and whether it is wired here and for the user.
func (c *AdaptCommand) list(env adapt.Env) error {
	var rows []hostJSON
	for _, h := range adapt.Hosts() {
		r := hostJSON{Host: h.Name, Title: h.Title, SessionID: h.SessionID, User: h.Plan(adapt.User, env).State()}
		if env.Root != "" {
			r.Project = h.Plan(adapt.Project, env).State()
		}
		rows = append(rows, r)
	}
	if c.json {
		return writeJSON(c.m.Stdout, rows)
	}
	if env.Root != "" {
		fmt.Fprintf(c.m.Stdout, "Workspace %s\n\n", env.Root)
	} else {
		fmt.Fprintf(c.m.Stdout, "No workspace here (project column empty).\n\n")
	}
	tw := tabwriter.NewWriter(c.m.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\tPROJECT\tUSER\tSESSION ID")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Host, r.Project, r.User, r.SessionID)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(c.m.Stdout, "\nWire one with: clumsies adapt HOST [--user]")
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
