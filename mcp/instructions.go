package mcp

import (
	"context"
	"errors"
	"strings"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/projections"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// protocolSummary is the frame an agent gets when the workspace has no
// META_PROMPT.md: in initialize's instructions, and as memsetup's mpf.
const protocolSummary = `# clumsies

This server holds the rules, workflows and context of this workspace and records how you use them.
Work in this cycle: setup once, then discover, load, apply, refer, refine, submit.

1. Setup: call memsetup once, before any other clumsies tool, with session_id set to the real session or thread id your host gave you (never make one up) and knownHashes {"META_PROMPT.md": ""} unless you remember its hash.
2. Discover: call memdisc to list what exists; filter by kind (rule, workflow, context), group or query.
3. Load: call memload with the ids you need and knownHashes holding an entry for every id ("" when you do not know the hash).
4. Apply: follow the loaded rules and workflows while you work. Loaded rules come first, then this frame, then your own defaults.
5. Refer: at the end of your turn, call memref once with every constraint you applied, copying ruleId, ruleHash and constraintId exactly as memload returned them.
6. Refine: when the task is to change rules, context or this frame, stage the change with artifact; it becomes a draft for review.
7. Submit: close the turn with agentreport (a short summary), or agentrejected when the result did not follow the loaded rules.

Every failed call returns structuredContent with error, code and retryable; follow retryAction when it is present.
`

// frame returns the META_PROMPT as the agent sees it (draft-aware, like
// every read), or the built-in protocol summary when the workspace has
// none. found reports whether a META_PROMPT exists.
func (s *Server) frame(ctx context.Context) (body, hash string, found bool, err error) {
	item, err := s.cfg.Catalog.View(ctx, content.MetaPromptPath)
	switch {
	case errors.Is(err, projections.ErrNotFound):
	case err != nil:
		return "", "", false, err
	case strings.TrimSpace(item.Body) != "":
		return item.Body, item.Hash, true, nil
	}
	return protocolSummary, content.Hash([]byte(protocolSummary)), false, nil
}

// readOnlyNotice ends the instructions of a read-only server, so that an
// agent knows before it tries that artifact will not stage its change.
const readOnlyNotice = `

---
This clumsies server is read-only: artifact answers read_only and stages no draft. Discover, load and refer as usual; when a task calls for a change to rules, workflows, context or the META_PROMPT, tell the user the change you would make instead.
`

// instructions returns the text of initialize's instructions: the frame,
// and on a read-only server a notice saying so.
func (s *Server) instructions(ctx context.Context) string {
	var (
		body string
		err  error
	)
	if s.starting() && s.cfg.EarlyFrame != nil {
		// The workspace is still opening: answer at once from the file.
		if body, err = s.cfg.EarlyFrame(); err == nil && strings.TrimSpace(body) == "" {
			body = protocolSummary
		}
	} else {
		body, _, _, err = s.frame(ctx)
	}
	if err != nil {
		s.log.Error("read META_PROMPT for instructions", "error", err)
		body = protocolSummary
	}
	if s.cfg.ReadOnly {
		body = strings.TrimRight(body, "\n") + readOnlyNotice
	}
	return body
}

// starting reports whether the Catalog is not ready yet (Config.Ready).
func (s *Server) starting() bool {
	if s.cfg.Ready == nil {
		return false
	}
	select {
	case <-s.cfg.Ready:
		return false
	default:
		return true
	}
}

// instructionsMiddleware puts the current frame into the result of
// initialize (and of server/discover, its successor in protocol 2026-07-28).
func (s *Server) instructionsMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.InitializeResult:
			r.Instructions = s.instructions(ctx)
		case *mcp.DiscoverResult:
			r.Instructions = s.instructions(ctx)
		}
		return res, nil
	}
}
