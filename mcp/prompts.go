package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// Each published workflow is also an MCP prompt, which hosts offer as a
// slash command (/mcp__clumsies__<name> in Claude Code): prompts/get
// answers with the workflow as memload gives it, footer included, and in
// a set-up session records an attest.load, as memload would for the same
// id without a known hash. The prompts follow the catalog (syncPrompts);
// a connection that has asked for prompts hears of a change with
// notifications/prompts/list_changed, one that never did hears nothing.

// prompts is the set of workflows served as prompts, and the connections
// that asked for them.
type prompts struct {
	mu     sync.Mutex
	byName map[string]servedPrompt
	asked  map[*mcp.ServerSession]bool
}

// servedPrompt is the workflow behind a prompt, and what its listing says.
type servedPrompt struct {
	id, path, description string
}

// promptName is the prompt name of the workflow at path ("workflow/CODING.md"
// gives "CODING", "workflow/go/REVIEW.md" "go-REVIEW"): the path below
// workflow/ without ".md", folders joined by "-", and every character a
// host would not take in a slash command as "_".
func promptName(path string) string {
	p := strings.TrimSuffix(strings.TrimPrefix(path, "workflow/"), ".md")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '/':
			return '-'
		case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			return r
		}
		return '_'
	}, p)
}

// syncPrompts brings the prompts in line with the published workflows of
// the catalog. The SDK tells the connections of each change (and
// promptsMiddleware only those that asked).
func (s *Server) syncPrompts(ctx context.Context) error {
	items, err := s.cfg.Catalog.List(ctx, projections.Filter{Kind: string(content.KindWorkflow)})
	if err != nil {
		return fmt.Errorf("list the workflows: %w", err)
	}
	want := make(map[string]servedPrompt, len(items))
	for _, it := range items {
		if !it.Published || it.Kind != content.KindWorkflow {
			continue
		}
		name := promptName(it.Path)
		if _, taken := want[name]; !taken {
			want[name] = servedPrompt{id: it.ID, path: it.Path, description: it.Description}
		}
	}
	p := &s.prompts
	p.mu.Lock()
	defer p.mu.Unlock()
	var gone []string
	for name := range p.byName {
		if _, ok := want[name]; !ok {
			gone = append(gone, name)
			delete(p.byName, name)
		}
	}
	if len(gone) > 0 {
		s.mcp.RemovePrompts(gone...)
	}
	if p.byName == nil {
		p.byName = map[string]servedPrompt{}
	}
	for name, sp := range want {
		if p.byName[name] == sp {
			continue
		}
		p.byName[name] = sp
		s.mcp.AddPrompt(&mcp.Prompt{Name: name, Title: sp.path, Description: promptDescription(sp)}, s.getPrompt)
	}
	return nil
}

// promptDescription is what a prompt's listing says of its workflow.
func promptDescription(sp servedPrompt) string {
	if sp.description != "" {
		return sp.description
	}
	return "The workflow " + sp.path + " of this workspace."
}

// PromptsInterval is how often serve looks for changed workflows while a
// client uses prompts.
const PromptsInterval = time.Second

// WatchPrompts keeps the prompts in line with the catalog until ctx ends:
// once the workspace is open (Config.Ready), then every interval while a
// connection that asked for prompts is open (a server whose clients never
// ask looks no more). A look that fails is logged and the next one tries
// again.
func (s *Server) WatchPrompts(ctx context.Context, interval time.Duration) {
	if s.waitReady(ctx); ctx.Err() != nil {
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for first := true; ; first = false {
		s.prompts.mu.Lock()
		listening := len(s.prompts.asked) > 0
		s.prompts.mu.Unlock()
		if first || listening {
			if err := s.syncPrompts(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("follow the workflows as prompts", "error", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// promptsMiddleware brings the prompts in line with the catalog before a
// prompts/list or prompts/get answers, and remembers that the connection
// asked for prompts.
func (s *Server) promptsMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "prompts/list" && method != "prompts/get" {
			return next(ctx, method, req)
		}
		s.askedForPrompts(req)
		s.waitReady(ctx)
		if err := s.syncPrompts(ctx); err != nil {
			s.log.Error("follow the workflows as prompts", "error", err)
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msgInternal}
		}
		return next(ctx, method, req)
	}
}

// askedForPrompts records that the connection of req asked for prompts,
// until it closes.
func (s *Server) askedForPrompts(req mcp.Request) {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return
	}
	p := &s.prompts
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.asked[ss] {
		return
	}
	if p.asked == nil {
		p.asked = map[*mcp.ServerSession]bool{}
	}
	p.asked[ss] = true
	go func() {
		_ = ss.Wait()
		p.mu.Lock()
		delete(p.asked, ss)
		p.mu.Unlock()
	}()
}

// quietPromptsMiddleware drops the change notifications of prompts to a
// connection that never asked for prompts: a client that does not use
// them sees nothing new.
func (s *Server) quietPromptsMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "notifications/prompts/list_changed" {
			ss, _ := req.GetSession().(*mcp.ServerSession)
			s.prompts.mu.Lock()
			asked := s.prompts.asked[ss]
			s.prompts.mu.Unlock()
			if !asked {
				return nil, nil
			}
		}
		return next(ctx, method, req)
	}
}

// getPrompt answers prompts/get with the workflow of the prompt, and in a
// set-up session records it as a load of that workflow.
func (s *Server) getPrompt(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	start := time.Now()
	s.prompts.mu.Lock()
	sp, ok := s.prompts.byName[req.Params.Name]
	s.prompts.mu.Unlock()
	if !ok {
		return nil, unknownPrompt(req.Params.Name)
	}
	it, err := s.cfg.Catalog.View(ctx, sp.id)
	switch {
	case errors.Is(err, projections.ErrNotFound):
		return nil, unknownPrompt(req.Params.Name)
	case err != nil:
		return nil, s.promptFailed(fmt.Errorf("view %s: %w", sp.id, err))
	}
	it = inForce(it)
	body := withFooter(it.Body, it.ID, it.Hash, it.Constraints)
	if b := s.sessions.of(req.Session); b.id != "" {
		data := events.LoadData{Items: []events.LoadedItem{loaded(it.ID, it, true)}}
		ev, fail := s.newEvent("prompts/get", entry{typ: events.TypeLoad, sessionID: b.id, payload: data}, nil, nil, time.Since(start))
		if fail != nil {
			return nil, s.promptFailed(errors.New(fail.Message))
		}
		s.stamp(&ev, req.Session, req.ClientInfo(), b.by == "")
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
		err := s.cfg.Ledger.Record(rctx, ev)
		cancel()
		if err != nil {
			return nil, s.promptFailed(fmt.Errorf("record the load of %s: %w", it.ID, err))
		}
	}
	return &mcp.GetPromptResult{
		Description: promptDescription(servedPrompt{path: it.Path, description: it.Description}),
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: body}}},
	}, nil
}

// unknownPrompt is the answer of a prompts/get of a name that is not (or
// no longer) a workflow of the catalog.
func unknownPrompt(name string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown prompt %q; prompts/list names the workflows of this workspace", name)}
}

// promptFailed logs err and returns the JSON-RPC error of a prompts/get
// that could not be answered or recorded.
func (s *Server) promptFailed(err error) error {
	s.log.Error("prompts/get failed", "error", err)
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msgInternal}
}
