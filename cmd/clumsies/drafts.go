package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/oneline"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/repodraft"
)

// DraftsCommand dispatches `clumsies drafts <subcommand>`: the review of
// the drafts agents stage with the artifact tool.
type DraftsCommand struct{ m *Main }

// Run implements command.
func (c *DraftsCommand) Run(ctx context.Context, args []string) error {
	if len(args) > 0 && isHelp(args[0]) {
		c.usage(c.m.Stdout)
		return nil
	}
	sub := "list"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	d := &draftsRun{m: c.m, name: sub}
	switch sub {
	case "list":
		return d.list(ctx, args)
	case "show":
		return d.show(ctx, args)
	case "diff":
		return d.diff(ctx, args)
	case "apply":
		return d.apply(ctx, args)
	case "decline":
		return d.decline(ctx, args)
	}
	c.usage(c.m.Stderr)
	return fmt.Errorf("%w: unknown drafts command %q", errUsage, sub)
}

func (c *DraftsCommand) usage(w io.Writer) {
	fmt.Fprint(w, `Usage: clumsies drafts <command> [flags]

The drafts agents staged with the artifact tool, and their review.

  list                 the open drafts (--all: the applied, declined and conflicted ones too)
  show ID              one draft: what it changes, its body, its history
  diff ID              the draft as a unified diff against the published content
  apply ID             write the draft into the content tree and record it applied
                       (refused as conflicted, with a diff, when the file changed since the draft was made,
                       or when its path passes through a symbolic link: apply writes only inside .clumsies/)
  decline ID           record the draft declined (--reason R); the agent sees the reason in memdisc

Every command takes --workspace DIR and --json.
`)
}

// draftsRun is one run of a drafts subcommand, with its shared flags.
type draftsRun struct {
	m    *Main
	name string
	ws   wsFlags
	json bool
}

// flags returns the flag set of the subcommand with the shared flags.
func (d *draftsRun) flags(synopsis string) *flag.FlagSet {
	fs := d.m.newFlags("drafts "+d.name, "drafts "+synopsis)
	d.ws.register(fs)
	fs.BoolVar(&d.json, "json", false, "print JSON")
	return fs
}

// id parses args and returns the one draft id they name.
func (d *draftsRun) id(fs *flag.FlagSet, args []string) (string, error) {
	pos, err := parsePositional(fs, args, 1)
	if err != nil {
		return "", err
	}
	if len(pos) == 0 {
		return "", fmt.Errorf("%w: drafts %s needs the id of a draft (clumsies drafts list shows them)", errUsage, d.name)
	}
	return pos[0], nil
}

// attach opens the workspace: as its owner when no process owns it, else
// through the owner.
func (d *draftsRun) attach(ctx context.Context) (*node.Handle, error) {
	return d.ws.attach(ctx, d.m, node.Options{LinkQuiet: true})
}

func (d *draftsRun) printJSON(v any) error {
	enc := json.NewEncoder(d.m.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// draftListJSON is the stable shape of `drafts list --json`. Fields may be
// added; none may change.
type draftListJSON struct {
	Drafts []catalog.Draft `json:"drafts"`
}

func (d *draftsRun) list(ctx context.Context, args []string) error {
	fs := d.flags("list [--all] [--workspace DIR] [--json]")
	all := fs.Bool("all", false, "list the applied, declined and conflicted drafts too, after the open ones")
	if err := parse(fs, args); err != nil {
		return err
	}
	h, err := d.attach(ctx)
	if err != nil {
		return err
	}
	defer h.Close()
	ds, err := h.DraftList(ctx, *all)
	if err != nil {
		return fmt.Errorf("list the drafts: %w", err)
	}
	if d.json {
		return d.printJSON(draftListJSON{Drafts: ds})
	}
	if len(ds) == 0 {
		if *all {
			fmt.Fprintln(d.m.Stdout, "No drafts: agents stage them with the artifact tool.")
		} else {
			fmt.Fprintln(d.m.Stdout, "No open drafts (clumsies drafts list --all shows the reviewed ones).")
		}
		return nil
	}
	tw := tabwriter.NewWriter(d.m.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tOP\tPATH\tSESSION\tSEQ\tREASON")
	for _, dr := range ds {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", dr.ID, dr.Status, dr.Op, pathOf(dr), orDash(dr.SessionID), dr.Seq, oneline.Cut(dr.Reason, 60))
	}
	return tw.Flush()
}

// pathOf is a draft's path as a listing shows it: a rename as old -> new.
func pathOf(d catalog.Draft) string {
	p := d.Path
	if d.Op == events.DraftOpRename {
		p += " -> " + d.NewPath
	}
	if d.Resource == events.ResourceContext {
		p = "context: " + p
	}
	return p
}

// draftShowJSON is the stable shape of `drafts show --json`.
type draftShowJSON struct {
	// Draft is the open draft of the id, or, when it has none, its last
	// closed one.
	Draft   catalog.Draft       `json:"draft"`
	History []catalog.Draft     `json:"history"` // the closed drafts of the id, oldest first
	Object  *projections.Object `json:"object,omitempty"`
	Diff    string              `json:"diff"`
}

// state reads the state of draft id and the draft to show: the open one,
// else the last closed one.
func (d *draftsRun) state(ctx context.Context, h *node.Handle, id string) (projections.DraftState, catalog.Draft, error) {
	st, err := h.DraftState(ctx, id)
	if err != nil {
		return st, catalog.Draft{}, fmt.Errorf("read draft %s: %w", id, err)
	}
	if dr, ok := st.Latest(); ok {
		return st, dr, nil
	}
	return st, catalog.Draft{}, fmt.Errorf("there is no draft %q; clumsies drafts list shows the open drafts and their ids (--all the reviewed ones)", id)
}

func (d *draftsRun) show(ctx context.Context, args []string) error {
	st, dr, diff, err := d.withDiff(ctx, "show ID [--workspace DIR] [--json]", args)
	if err != nil {
		return err
	}
	if d.json {
		hist := st.History
		if hist == nil {
			hist = []catalog.Draft{}
		}
		return d.printJSON(draftShowJSON{Draft: dr, History: hist, Object: st.Object, Diff: diff})
	}
	w := d.m.Stdout
	fmt.Fprintf(w, "Draft %s: %s %s of %s\n", dr.ID, dr.Status, dr.Op, pathOf(dr))
	fmt.Fprintf(w, "  session      %s\n  event        %d\n", orDash(dr.SessionID), dr.Seq)
	if dr.BaseHash != "" {
		fmt.Fprintf(w, "  base hash    %s\n", dr.BaseHash)
	}
	if dr.Description != "" {
		fmt.Fprintf(w, "  description  %s\n", dr.Description)
	}
	if dr.Reviewer != "" {
		fmt.Fprintf(w, "  reviewer     %s\n", dr.Reviewer)
	}
	if dr.Reason != "" {
		fmt.Fprintf(w, "  reason       %s\n", dr.Reason)
	}
	for _, c := range st.History {
		if c.Seq != dr.Seq {
			fmt.Fprintf(w, "  earlier      %s at event %d by %s%s\n", c.Status, c.Seq, orDash(c.Reviewer), reasonSuffix(c.Reason))
		}
	}
	if dr.Diff != "" {
		fmt.Fprintf(w, "\nThe conflict (the file as it was, against the draft):\n%s", dr.Diff)
	}
	if diff != "" {
		fmt.Fprintf(w, "\nThe draft against the published content:\n%s", diff)
	}
	if dr.Status == catalog.StatusDraft {
		fmt.Fprintf(w, "\nApply it as shown with clumsies drafts apply %s --seq %d (refused if the agent changes it meanwhile),\nor decline it with clumsies drafts decline %s --reason R.\n", dr.ID, dr.Seq, dr.ID)
	}
	return nil
}

// withDiff reads the draft that args name (usage: the subcommand's
// synopsis) and its diff against the published content.
func (d *draftsRun) withDiff(ctx context.Context, usage string, args []string) (projections.DraftState, catalog.Draft, string, error) {
	id, err := d.id(d.flags(usage), args)
	if err != nil {
		return projections.DraftState{}, catalog.Draft{}, "", err
	}
	h, err := d.attach(ctx)
	if err != nil {
		return projections.DraftState{}, catalog.Draft{}, "", err
	}
	defer h.Close()
	st, dr, err := d.state(ctx, h, id)
	if err != nil {
		return st, dr, "", err
	}
	diff, err := repodraft.Diff(dr, st.Object)
	content := h.Workspace().Config.Content
	dr.Diff = fromRepoRoot(dr.Diff, content)
	return st, dr, fromRepoRoot(diff, content), err
}

func reasonSuffix(r string) string {
	if r == "" {
		return ""
	}
	return ": " + r
}

func (d *draftsRun) diff(ctx context.Context, args []string) error {
	_, dr, diff, err := d.withDiff(ctx, "diff ID [--workspace DIR] [--json]", args)
	if err != nil {
		return err
	}
	if d.json {
		return d.printJSON(struct {
			ID     string              `json:"id"`
			Status catalog.DraftStatus `json:"status"`
			Diff   string              `json:"diff"`
		}{dr.ID, dr.Status, diff})
	}
	_, err = io.WriteString(d.m.Stdout, diff)
	return err
}

func (d *draftsRun) reviewerOf(h *node.Handle) *repodraft.Reviewer {
	ws := h.Workspace()
	return &repodraft.Reviewer{Ledger: h, WorkspaceID: ws.ID(), Root: ws.ContentRoot(), Name: repodraft.UserName()}
}

func (d *draftsRun) apply(ctx context.Context, args []string) error {
	fs := d.flags("apply ID [--seq N] [--workspace DIR] [--sync always|interval] [--json]")
	d.ws.registerSync(fs)
	seq := fs.Uint64("seq", 0, "apply the draft only if it is still as at event `N` (the event drafts show printed): refused if the agent changed it since")
	id, err := d.id(fs, args)
	if err != nil {
		return err
	}
	h, err := d.attach(ctx)
	if err != nil {
		return err
	}
	defer h.Close()
	out, err := d.reviewerOf(h).Apply(ctx, id, *seq)
	if err != nil {
		return reviewErr(err)
	}
	if d.json {
		if err := d.printJSON(out); err != nil {
			return err
		}
		if out.Type == events.TypeDraftConflict {
			return errSilent{1}
		}
		return nil
	}
	if out.Type == events.TypeDraftConflict {
		fmt.Fprint(d.m.Stdout, fromRepoRoot(out.Data.Diff, h.Workspace().Config.Content))
		return fmt.Errorf("draft %s is conflicted and was not applied: %s; the diff above is what it would still change. the agent may stage a new draft on the current file", id, out.Data.Reason)
	}
	what := "wrote " + out.Plan.Path
	switch out.Plan.Op {
	case events.DraftOpDelete:
		what = "removed " + out.Plan.Path
	case events.DraftOpRename:
		what = "moved " + out.Plan.Path + " to " + out.Plan.NewPath
	}
	if out.Recovered {
		what = "the files already held it (" + strings.TrimPrefix(what, "wrote ") + "); recorded it"
	}
	fmt.Fprintf(d.m.Stdout, "Applied draft %s: %s.\n", id, what)
	fmt.Fprintln(d.m.Stdout, "Review and commit the change with git. A running clumsies serve publishes it now; otherwise the next serve or clumsies publish does.")
	return nil
}

func (d *draftsRun) decline(ctx context.Context, args []string) error {
	fs := d.flags("decline ID --reason R [--workspace DIR] [--sync always|interval] [--json]")
	d.ws.registerSync(fs)
	reason := fs.String("reason", "", "why, in words the agent reads in memdisc (required)")
	id, err := d.id(fs, args)
	if err != nil {
		return err
	}
	if strings.TrimSpace(*reason) == "" {
		return fmt.Errorf("%w: drafts decline needs --reason R: the agent reads it in memdisc", errUsage)
	}
	h, err := d.attach(ctx)
	if err != nil {
		return err
	}
	defer h.Close()
	out, err := d.reviewerOf(h).Decline(ctx, id, strings.TrimSpace(*reason))
	if err != nil {
		return reviewErr(err)
	}
	if d.json {
		return d.printJSON(out)
	}
	fmt.Fprintf(d.m.Stdout, "Declined draft %s: %s\n", id, out.Data.Reason)
	return nil
}

// reviewErr words a refusal of the review's rules for a person: its
// message, which says what to do, without the code.
func reviewErr(err error) error {
	var de *catalog.DraftError
	if errors.As(err, &de) {
		return errors.New(de.Message)
	}
	return err
}
