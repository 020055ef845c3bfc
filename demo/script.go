package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/clumsies/clumsies/internal/oneline"
	"github.com/clumsies/clumsies/mcp"
)

// Call is one tool call of the demo.
type Call struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	IsError   bool           `json:"isError"`
	Result    map[string]any `json:"result"`
}

// script plays the part of an agent.
type script struct {
	ctx   context.Context
	cl    *mcp.Client
	out   io.Writer
	calls []Call
}

func (s *script) call(tool string, args map[string]any, note string) (map[string]any, error) {
	a, _ := json.Marshal(args)
	fmt.Fprintf(s.out, "-> %s %s\n", tool, oneline.Cut(string(a), 110))
	res, isErr, err := s.cl.Call(s.ctx, tool, args)
	if err != nil {
		return nil, fmt.Errorf("call %s: %w", tool, err)
	}
	s.calls = append(s.calls, Call{Tool: tool, Arguments: args, IsError: isErr, Result: res})
	if isErr {
		fmt.Fprintf(s.out, "   error %v (retryable=%v): %s\n", res["code"], res["retryable"], oneline.Cut(fmt.Sprint(res["error"]), 100))
	} else if note != "" {
		fmt.Fprintf(s.out, "   %s\n", note)
	}
	return res, nil
}

func (s *script) run() error {
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
	fmt.Fprintf(s.out, "   bound session %v; META_PROMPT %s (%d bytes)\n", res["sessionId"], oneline.Hash(fmt.Sprint(mpf["hash"])), len(fmt.Sprint(mpf["content"])))

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
		fmt.Fprintf(s.out, "   %-9v %-28v %v hasDraft=%v\n", m["kind"], m["path"], m["id"], m["hasDraft"] == true)
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
