package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/oneline"
	"github.com/clumsies/clumsies/node"
)

// EventsCommand prints the ledger.
type EventsCommand struct {
	m      *Main
	ws     wsFlags
	follow bool
	typ    string
	json   bool
	from   uint64
}

// Run implements command.
func (c *EventsCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("events", "events [--workspace DIR] [--follow] [--type T] [--from SEQ] [--json]")
	c.ws.register(fs)
	fs.BoolVar(&c.follow, "follow", false, "keep printing new events until interrupted")
	fs.StringVar(&c.typ, "type", "", "only events whose type starts with `T` (e.g. attest.refer, catalog)")
	fs.BoolVar(&c.json, "json", false, "one JSON envelope per line, with the stream sequence as seq")
	fs.Uint64Var(&c.from, "from", 1, "start at stream sequence `SEQ`")
	if err := parse(fs, args); err != nil {
		return err
	}
	opts := node.Options{LinkQuiet: true} // the ledger is local: no need of the hub
	if c.follow {
		// A long-lived process may own the workspace while agents work
		// through it: as the owner, it publishes content edits too.
		opts.WatchContent = (&publishReport{w: c.m.Stderr}).report
	}
	h, err := c.ws.attach(ctx, c.m, opts)
	if err != nil {
		return err
	}
	defer h.Close()
	print := func(ev events.Event) error {
		if c.typ != "" && !strings.HasPrefix(string(ev.Type), c.typ) {
			return nil
		}
		if c.json {
			b, err := json.Marshal(ev)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(c.m.Stdout, string(b))
			return err
		}
		return printEvent(c.m.Stdout, ev)
	}
	// Whether this process owns the workspace or reads through the owner,
	// the handle goes on after the last event printed when the owner
	// changes.
	if c.follow {
		err = h.Subscribe(ctx, c.from, print)
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	return h.Replay(ctx, c.from, print)
}

// printEvent writes one human-readable ledger line.
func printEvent(w io.Writer, ev events.Event) error {
	outcome := string(ev.Outcome)
	if ev.ErrorCode != "" {
		outcome += ":" + ev.ErrorCode
	}
	session := ev.SessionID
	if session == "" {
		session = "-"
	}
	_, err := fmt.Fprintf(w, "%6d  %s  %-22s %-16s %-24s %6dus  %s\n",
		ev.Seq, ev.Time, ev.Type, oneline.Cut(session, 16), outcome, ev.DurationUs, summarize(ev))
	return err
}

// summarize renders the interesting part of an event's payload in one line.
func summarize(ev events.Event) string {
	p, err := ev.Payload()
	if err != nil {
		return "(unreadable payload)"
	}
	switch d := p.(type) {
	case *events.FailureData:
		return oneline.Cut(d.Message, 80)
	case *events.SetupData:
		return fmt.Sprintf("mpf %s changed=%t", oneline.Hash(d.Hash), d.Changed)
	case *events.DiscoverData:
		return fmt.Sprintf("%d items kind=%q group=%q query=%q", d.Count, d.Kind, d.Group, d.Query)
	case *events.LoadData:
		ids := make([]string, len(d.Items))
		for i, it := range d.Items {
			ids[i] = it.ID
		}
		return "ids " + oneline.Cut(strings.Join(ids, ","), 80)
	case *events.ReferData:
		refs := make([]string, len(d.Refs))
		for i, r := range d.Refs {
			refs[i] = r.RuleID + "#" + r.ConstraintID
		}
		return oneline.Cut(strings.Join(refs, " "), 100)
	case *events.AgentReportData:
		return oneline.Cut(d.Summary, 80)
	case *events.RejectData:
		return oneline.Cut(d.Reason, 80)
	case *events.DraftData:
		return strings.TrimSpace(fmt.Sprintf("%s %s %s %s", d.Resource, d.ID, d.Path, d.NewPath))
	case *events.PublishData:
		return fmt.Sprintf("%s %s %s", d.Kind, d.Path, oneline.Hash(d.Hash))
	case *events.RemoveData:
		return fmt.Sprintf("%s %s", d.Kind, d.Path)
	case *events.ReidData:
		return fmt.Sprintf("%s %s %s -> %s", d.Kind, d.Path, d.From, d.To)
	case *events.ReviewData:
		return strings.TrimSpace(d.DraftID + " " + d.Reviewer + " " + oneline.Cut(d.Reason, 60))
	case *events.CheckpointData:
		return fmt.Sprintf("chain through seq %d %s", d.Seq, oneline.Hash(d.Digest))
	case *events.SessionStartData:
		return strings.TrimSpace(fmt.Sprintf("%s %s %s", d.Host, d.Source, d.Model))
	case *events.UserPromptData:
		line := fmt.Sprintf("%s %d bytes %s", d.Host, d.Length, oneline.Hash(d.SHA256))
		if d.Text != "" {
			line += " " + strconv.Quote(oneline.Cut(d.Text, 60))
		}
		return line
	case *events.StopBlockedData:
		line := fmt.Sprintf("%s stop %d of %d blocked", d.Host, d.Blocks, d.Limit)
		if len(d.Files) > 0 {
			line += fmt.Sprintf("; files %s need %s", oneline.Cut(strings.Join(d.Files, ","), 60), oneline.Cut(strings.Join(d.Missing, ","), 60))
		}
		return line
	case *events.ToolGatedData:
		line := fmt.Sprintf("%s %s %s %s", d.Decision, d.Host, d.Tool, oneline.Cut(strings.Join(d.Paths, ","), 60))
		if len(d.Missing) > 0 {
			line += " missing " + oneline.Cut(strings.Join(d.Missing, ","), 60)
		}
		if d.Unchecked != "" {
			line += " unchecked: " + oneline.Cut(d.Unchecked, 60)
		}
		return line
	case *events.CheckData:
		found := 0
		for _, r := range d.Results {
			if !r.Pass {
				found++
			}
		}
		via := d.Via
		if via == "" {
			via = events.ViaPostTool
		}
		line := fmt.Sprintf("%s %s: %d rules on %s, %d findings", d.Host, via, len(d.Rules), oneline.Cut(strings.Join(d.Files, ","), 60), found)
		if d.Decision != "" {
			line += " " + d.Decision
		}
		if d.Rejected {
			line += " (rejected with a reason)"
		}
		return line
	case *events.FileEditData:
		line := strings.TrimSpace(fmt.Sprintf("%s %s %s", d.Host, d.Tool, oneline.Cut(strings.Join(d.Paths, ","), 60)))
		if len(d.Rules) > 0 {
			line += fmt.Sprintf(" (%d rules in scope, %d not loaded)", len(d.Rules), len(d.Unloaded))
		}
		return line
	}
	return ""
}
