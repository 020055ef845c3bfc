package mcp

import (
	"context"
	"errors"
	"strings"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/mcp/frame"
	"github.com/clumsies/clumsies/projections"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// protocolSummary is the frame an agent gets when the workspace has no
// META_PROMPT.md.
const protocolSummary = frame.Summary

// frame returns the META_PROMPT as the agent sees it (draft-aware: a
// draft of it is served at once), or the built-in protocol summary when
// the workspace has none. found reports whether a META_PROMPT exists.
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

// instructions returns the text of initialize's instructions: the frame,
// on a read-only server a notice saying so, and Config.Notice.
func (s *Server) instructions(ctx context.Context) string {
	var (
		body string
		err  error
	)
	if s.starting() && s.cfg.EarlyFrame != nil {
		// The workspace is still opening: answer at once from the file.
		body, err = s.cfg.EarlyFrame()
	} else {
		body, _, _, err = s.frame(ctx)
	}
	if err != nil {
		s.log.Error("read META_PROMPT for instructions", "error", err)
		body = ""
	}
	text := frame.Instructions(body, s.cfg.ReadOnly)
	if s.cfg.Notice != "" {
		text = strings.TrimRight(text, "\n") + "\n\n---\n" + s.cfg.Notice + "\n"
	}
	return text
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
