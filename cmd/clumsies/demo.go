package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/mcp"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/stats"
	"github.com/clumsies/clumsies/workspace"
)

// DemoCommand runs a scripted agent session through a real MCP client
// against a throw-away workspace and shows the ledger and usage it produced.
type DemoCommand struct {
	m    *Main
	keep bool
	json bool
}

// demoJSON is what `clumsies demo --json` prints: the calls the scripted
// agent made, the events they produced and the usage.
type demoJSON struct {
	WorkspaceID string         `json:"workspaceId"`
	Dir         string         `json:"dir,omitempty"` // with --keep
	Calls       []demoCall     `json:"calls"`
	Events      []events.Event `json:"events"`
	Stats       stats.Report   `json:"stats"`
}

// demoCall is one tool call of the demo.
type demoCall struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	IsError   bool           `json:"isError"`
	Result    map[string]any `json:"result"`
}

// Run implements command.
func (c *DemoCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("demo", "demo [--keep] [--json]")
	fs.BoolVar(&c.keep, "keep", false, "keep the throw-away workspace and print where it is")
	fs.BoolVar(&c.json, "json", false, "print {workspaceId, dir, calls, events, stats} instead of the walk-through")
	if err := parse(fs, args); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "clumsies-demo-")
	if err != nil {
		return fmt.Errorf("create a demo workspace: %w", err)
	}
	if !c.keep {
		defer os.RemoveAll(dir)
	}
	ws, _, err := workspace.Init(dir)
	if err != nil {
		return err
	}
	n, err := node.Open(ctx, ws, node.Options{Sync: embeddednats.SyncAlways})
	if err != nil {
		return err
	}
	defer n.Close()
	if err := n.StartProjections(ctx); err != nil {
		return err
	}
	published, err := n.Publish(ctx)
	if err != nil {
		return err
	}
	out := c.m.Stdout
	if c.json {
		out = io.Discard
	}
	fmt.Fprintf(out, "Demo workspace %s in %s\nPublished %d content files from .clumsies/ (META_PROMPT.md, rules/).\n\n", ws.ID(), dir, published.Count)

	srv := mcp.NewServer(mcp.Config{WorkspaceID: ws.ID(), Root: ws.Root, Catalog: n.Store, Ledger: mcp.LogLedger{Log: n.Log, Store: n.Store}, Version: version()})
	cl, err := mcp.Connect(ctx, srv)
	if err != nil {
		return err
	}
	defer cl.Close()
	s := &demoScript{ctx: ctx, cl: cl, out: out}
	if err := s.run(); err != nil {
		return err
	}

	// The table is read once the projections have applied every event
	// the ledger printed holds, so the two agree.
	last, err := n.CatchUp(ctx)
	if err != nil {
		return err
	}
	var evs []events.Event
	if err := n.Log.Replay(ctx, 1, func(ev events.Event) error {
		if ev.Seq <= last {
			evs = append(evs, ev)
		}
		return nil
	}); err != nil {
		return err
	}
	st := stats.OfStore(ws.ID(), n.Store)
	if c.json {
		d := demoJSON{WorkspaceID: ws.ID(), Calls: s.calls, Events: evs, Stats: st}
		if c.keep {
			d.Dir = dir
		}
		enc := json.NewEncoder(c.m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(d)
	}
	fmt.Fprintln(out, "\n== The ledger: one immutable event per tool call ==")
	for _, ev := range evs {
		if err := printEvent(out, ev); err != nil {
			return err
		}
	}
	fmt.Fprintln(out, "\n== Usage (clumsies stats) ==")
	if err := printStats(out, st); err != nil {
		return err
	}
	if c.keep {
		fmt.Fprintf(out, "\nKept the workspace in %s: look around with clumsies ui --workspace %s (or stats, events)\n", dir, dir)
	} else {
		fmt.Fprintf(out, "\nThe demo workspace is deleted as the demo ends; clumsies demo --keep keeps it to look around.\n")
	}
	return nil
}

// demoScript plays the part of an agent.
type demoScript struct {
	ctx   context.Context
	cl    *mcp.Client
	out   io.Writer
	calls []demoCall
}

func (s *demoScript) call(tool string, args map[string]any, note string) (map[string]any, error) {
	a, _ := json.Marshal(args)
	fmt.Fprintf(s.out, "-> %s %s\n", tool, truncate(string(a), 110))
	res, isErr, err := s.cl.Call(s.ctx, tool, args)
	if err != nil {
		return nil, fmt.Errorf("call %s: %w", tool, err)
	}
	s.calls = append(s.calls, demoCall{Tool: tool, Arguments: args, IsError: isErr, Result: res})
	if isErr {
		fmt.Fprintf(s.out, "   error %v (retryable=%v): %s\n", res["code"], res["retryable"], truncate(fmt.Sprint(res["error"]), 100))
	} else if note != "" {
		fmt.Fprintf(s.out, "   %s\n", note)
	}
	return res, nil
}

func (s *demoScript) run() error {
	fmt.Fprintln(s.out, "== An agent session over MCP ==")
	setup, err := s.call("memdisc", map[string]any{}, "")
	if err != nil {
		return err
	}
	_ = setup
	res, err := s.call("memsetup", map[string]any{"session_id": "demo-session-1", "knownHashes": map[string]any{"META_PROMPT.md": ""}}, "")
	if err != nil {
		return err
	}
	mpf, _ := res["mpf"].(map[string]any)
	fmt.Fprintf(s.out, "   bound session %v; META_PROMPT %s (%d bytes)\n", res["sessionId"], shortHash(fmt.Sprint(mpf["hash"])), len(fmt.Sprint(mpf["content"])))

	res, err = s.call("memdisc", map[string]any{}, "")
	if err != nil {
		return err
	}
	items, _ := res["items"].([]any)
	var workflowID, ruleID string
	for _, it := range items {
		m, _ := it.(map[string]any)
		fmt.Fprintf(s.out, "   %-9v %-22v %v\n", m["kind"], m["path"], m["id"])
		switch m["kind"] {
		case "workflow":
			workflowID = fmt.Sprint(m["id"])
		case "rule":
			ruleID = fmt.Sprint(m["id"])
		}
	}

	res, err = s.call("memload", map[string]any{"ids": []string{workflowID}, "knownHashes": map[string]any{workflowID: ""}}, "")
	if err != nil {
		return err
	}
	wf := firstItem(res)
	wfHash := fmt.Sprint(wf["hash"])
	fmt.Fprintf(s.out, "   loaded %v changed=%v, constraints: %s\n", wf["path"], wf["changed"], constraintIDs(wf))

	res, err = s.call("memload", map[string]any{"ids": []string{workflowID}, "knownHashes": map[string]any{workflowID: wfHash}}, "")
	if err != nil {
		return err
	}
	again := firstItem(res)
	fmt.Fprintf(s.out, "   delta load: changed=%v, content=%v (constraints still returned: %s)\n", again["changed"], again["content"], constraintIDs(again))

	if _, err := s.call("memload", map[string]any{"ids": []string{ruleID}, "knownHashes": map[string]any{ruleID: ""}}, "loaded the error-handling rule"); err != nil {
		return err
	}

	if _, err := s.call("memref", map[string]any{"refs": []any{map[string]any{"ruleId": workflowID, "constraintId": "Step 3"}}}, ""); err != nil {
		return err
	}
	fmt.Fprintln(s.out, "   (the agent guessed an id; the structured error lists the valid ones, so it retries)")
	if _, err := s.call("memref", map[string]any{"refs": []any{
		map[string]any{"ruleId": workflowID, "constraintId": "Steps/3", "ruleHash": wfHash, "reason": "kept the change small"},
		map[string]any{"ruleId": workflowID, "constraintId": "Steps/4", "ruleHash": wfHash, "reason": "added a failing test first"},
		map[string]any{"ruleId": ruleID, "constraintId": "Wrap with context/2", "reason": "wrapped the config error"},
	}}, "recorded 3 references"); err != nil {
		return err
	}

	res, err = s.call("artifact", map[string]any{"resource": "context", "op": map[string]any{"create": map[string]any{
		"path": "architecture/overview", "body": "# Overview\n\nThe importer reads CSV and writes Parquet.\n", "description": "what the importer does"}}}, "")
	if err != nil {
		return err
	}
	fmt.Fprintf(s.out, "   draft %v at %v, waiting for review\n", res["id"], res["draft_path"])

	res, err = s.call("memdisc", map[string]any{"kind": "context"}, "")
	if err != nil {
		return err
	}
	for _, it := range res["items"].([]any) {
		m, _ := it.(map[string]any)
		fmt.Fprintf(s.out, "   %-9v %-28v %v hasDraft=%v\n", m["kind"], m["path"], m["id"], m["hasDraft"])
	}
	_, err = s.call("agentreport", map[string]any{"summary": "Made the export stream rows; added a regression test."}, "turn closed")
	return err
}

func firstItem(res map[string]any) map[string]any {
	items, _ := res["items"].([]any)
	if len(items) == 0 {
		return map[string]any{}
	}
	m, _ := items[0].(map[string]any)
	return m
}

func constraintIDs(item map[string]any) string {
	cs, _ := item["constraints"].([]any)
	var ids []string
	for _, c := range cs {
		m, _ := c.(map[string]any)
		ids = append(ids, fmt.Sprint(m["id"]))
	}
	sort.Strings(ids)
	return strings.Join(ids, ", ")
}
