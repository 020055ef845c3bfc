package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Client is a real MCP client, connected to a Server in memory (Connect) or
// to a `clumsies serve` process over its stdio (ConnectCommand). It is one
// connection, so it binds at most one agent session.
type Client struct {
	cs *mcp.ClientSession
	ss *mcp.ServerSession // nil when the server runs in another process
	// promptsChanged counts the notifications/prompts/list_changed heard.
	promptsChanged *atomic.Int32
}

// newClient is the SDK client of a Client, counting the prompt list
// changes it hears of in changed.
func newClient(version string, changed *atomic.Int32) *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "clumsies-client", Version: version}, &mcp.ClientOptions{
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) { changed.Add(1) },
	})
}

// Connect connects a new client to s over in-memory transports and runs
// the MCP handshake.
func Connect(ctx context.Context, s *Server) (*Client, error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.mcp.Connect(ctx, st, nil)
	if err != nil {
		return nil, fmt.Errorf("connect server: %w", err)
	}
	changed := new(atomic.Int32)
	cs, err := newClient(s.version(), changed).Connect(ctx, ct, nil)
	if err != nil {
		_ = ss.Close()
		return nil, fmt.Errorf("connect client: %w", err)
	}
	return &Client{cs: cs, ss: ss, promptsChanged: changed}, nil
}

// ConnectCommand starts cmd, an MCP server speaking over its stdin and
// stdout (such as `clumsies serve`), and connects a client to it. Close
// closes the server's stdin and waits for the process to exit (it is
// terminated if it does not, after a few seconds).
func ConnectCommand(ctx context.Context, cmd *exec.Cmd) (*Client, error) {
	changed := new(atomic.Int32)
	cs, err := newClient("dev", changed).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", cmd.Path, err)
	}
	return &Client{cs: cs, promptsChanged: changed}, nil
}

// Call calls a tool with args (anything that encodes as a JSON object; nil
// sends {}). It returns the structured result and whether the tool failed.
// err is set only when there is no tool result: an unknown tool, a broken
// connection.
func (c *Client) Call(ctx context.Context, tool string, args any) (structured map[string]any, isError bool, err error) {
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, false, fmt.Errorf("call %s: %w", tool, err)
	}
	if res.StructuredContent == nil {
		return nil, res.IsError, nil
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, res.IsError, fmt.Errorf("call %s: encode result: %w", tool, err)
	}
	if err := json.Unmarshal(b, &structured); err != nil {
		return nil, res.IsError, fmt.Errorf("call %s: result is not an object: %w", tool, err)
	}
	return structured, res.IsError, nil
}

// Do calls a tool with args as Call does and returns only whether the
// tool failed: the SDK reads the whole answer, which is not decoded a
// second time into a map (for timing calls as a client makes them).
func (c *Client) Do(ctx context.Context, tool string, args any) (isError bool, err error) {
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return false, fmt.Errorf("call %s: %w", tool, err)
	}
	return res.IsError, nil
}

// Tools returns the names of the tools the server lists (sorted by name).
func (c *Client) Tools(ctx context.Context) ([]string, error) {
	var names []string
	for t, err := range c.cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list tools: %w", err)
		}
		names = append(names, t.Name)
	}
	return names, nil
}

// Prompts returns the names of the prompts the server lists (the
// workflows), in its order.
func (c *Client) Prompts(ctx context.Context) ([]string, error) {
	var names []string
	for p, err := range c.cs.Prompts(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list prompts: %w", err)
		}
		names = append(names, p.Name)
	}
	return names, nil
}

// Prompt returns the text of the prompt name.
func (c *Client) Prompt(ctx context.Context, name string) (string, error) {
	res, err := c.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name})
	if err != nil {
		return "", fmt.Errorf("get prompt %s: %w", name, err)
	}
	var b strings.Builder
	for _, m := range res.Messages {
		if tc, ok := m.Content.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), nil
}

// PromptsChanged returns how many notifications/prompts/list_changed the
// client has heard.
func (c *Client) PromptsChanged() int { return int(c.promptsChanged.Load()) }

// Instructions returns the instructions the server sent at connection.
func (c *Client) Instructions() string {
	if r := c.cs.InitializeResult(); r != nil {
		return r.Instructions
	}
	return ""
}

// Close closes the connection and waits until the server has let go of it.
func (c *Client) Close() error {
	err := c.cs.Close()
	if c.ss == nil {
		return err
	}
	// The server may be writing (a notification, a late answer) when the
	// client's end goes: the in-memory pipe then reports it closed, which
	// is this same closing.
	if werr := c.ss.Wait(); werr != nil && !errors.Is(werr, mcp.ErrConnectionClosed) && !errors.Is(werr, io.ErrClosedPipe) {
		err = errors.Join(err, werr)
	}
	return err
}
