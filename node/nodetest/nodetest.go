// Package nodetest drives real `clumsies serve` processes on one
// workspace, each behind its own MCP client, for the end-to-end tests and
// `make bench`: it finds the process that owns the workspace, kills it with
// SIGKILL and times how long the others take to answer again. It imports
// the mcp package for its client; the product code never imports it.
package nodetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/mcp"
	"github.com/clumsies/clumsies/workspace"
)

// Proc is one `clumsies serve` process with its MCP client. Its client is
// bound to the agent session Session.
type Proc struct {
	Cmd     *exec.Cmd
	Client  *mcp.Client
	Session string
	stderr  *syncBuffer
}

// Pid returns the process id.
func (p *Proc) Pid() int { return p.Cmd.Process.Pid }

// Stderr returns what the process has logged so far.
func (p *Proc) Stderr() string { return p.stderr.String() }

// Cluster is a set of `clumsies serve` processes on one workspace.
type Cluster struct {
	Bin   string   // the clumsies binary
	Dir   string   // the workspace
	Args  []string // extra arguments of serve
	Procs []*Proc  // running processes, in start order

	state string
	next  int
}

// Start starts n `clumsies serve --workspace dir` processes of bin at once
// (dir must hold a workspace: clumsies init), connects an MCP client to each
// and binds each to its own session with memsetup. args are added to the
// command line of serve.
func Start(ctx context.Context, bin, dir string, n int, args ...string) (*Cluster, error) {
	ws, err := workspace.Open(dir)
	if err != nil {
		return nil, err
	}
	c := &Cluster{Bin: bin, Dir: dir, Args: args, state: ws.StateDir()}
	procs := make([]*Proc, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			procs[i], errs[i] = c.start(ctx, i)
		}()
	}
	wg.Wait()
	c.next = n
	for _, p := range procs {
		if p != nil {
			c.Procs = append(c.Procs, p)
		}
	}
	if err := errors.Join(errs...); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Add starts one more process.
func (c *Cluster) Add(ctx context.Context) (*Proc, error) {
	p, err := c.start(ctx, c.next)
	c.next++
	if err != nil {
		return nil, err
	}
	c.Procs = append(c.Procs, p)
	return p, nil
}

func (c *Cluster) start(ctx context.Context, i int) (*Proc, error) {
	cmd := exec.Command(c.Bin, append([]string{"serve", "--workspace", c.Dir}, c.Args...)...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	cl, err := mcp.ConnectCommand(ctx, cmd)
	if err != nil {
		if cmd.Process != nil {
			cmd.Process.Kill()
		}
		return nil, fmt.Errorf("start serve %d: %w (stderr: %s)", i, err, stderr)
	}
	p := &Proc{Cmd: cmd, Client: cl, Session: fmt.Sprintf("nodetest-%d", i), stderr: stderr}
	res, isErr, err := cl.Call(ctx, "memsetup", map[string]any{"session_id": p.Session, "knownHashes": map[string]any{"META_PROMPT.md": ""}})
	if err != nil || isErr {
		cl.Close()
		return nil, fmt.Errorf("memsetup on serve %d: %v %v (stderr: %s)", i, err, res, stderr)
	}
	return p, nil
}

// Owner returns the process that owns the workspace, as the lock file
// names it. It waits up to 10 s for an owner (one may be taking over).
func (c *Cluster) Owner() (*Proc, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		pid, locked, err := embeddednats.Owner(c.state)
		if err != nil {
			return nil, err
		}
		if locked && pid > 0 {
			for _, p := range c.Procs {
				if p.Pid() == pid {
					return p, nil
				}
			}
			return nil, fmt.Errorf("the workspace is owned by pid %d, not by a process of the cluster", pid)
		}
		if time.Now().After(deadline) {
			return nil, errors.New("nobody owns the workspace")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Kill kills p with SIGKILL (if it is still running), waits until it is
// gone and drops it from the cluster.
func (c *Cluster) Kill(p *Proc) error {
	if err := p.Cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	p.Client.Close() // waits for the process
	for i, q := range c.Procs {
		if q == p {
			c.Procs = append(c.Procs[:i:i], c.Procs[i+1:]...)
			break
		}
	}
	return nil
}

// Stop ends p the way an agent does, by closing its stdin, waits for it
// and drops it from the cluster. It returns an error if p did not exit
// cleanly on its own within a few seconds.
func (c *Cluster) Stop(p *Proc) error {
	err := p.Client.Close()
	for i, q := range c.Procs {
		if q == p {
			c.Procs = append(c.Procs[:i:i], c.Procs[i+1:]...)
			break
		}
	}
	if err != nil {
		return fmt.Errorf("serve pid %d: %w (stderr: %s)", p.Pid(), err, p.Stderr())
	}
	return nil
}

// Close ends every process the way an agent does, by closing its stdin,
// and waits for them.
func (c *Cluster) Close() error {
	var wg sync.WaitGroup
	errs := make([]error, len(c.Procs))
	for i, p := range c.Procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.Client.Close(); err != nil {
				errs[i] = fmt.Errorf("serve pid %d: %w (stderr: %s)", p.Pid(), err, p.Stderr())
			}
		}()
	}
	wg.Wait()
	c.Procs = nil
	return errors.Join(errs...)
}

// Takeover kills the owner with SIGKILL while every other process keeps
// calling memdisc, and returns the time from the kill to the first answer
// to a call that a survivor made after the owner was gone. It fails if any
// survivor's call fails. The killed process is replaced by a new one, so
// that the cluster keeps its size and Takeover can be called again.
func (c *Cluster) Takeover(ctx context.Context) (time.Duration, error) {
	victim, err := c.Owner()
	if err != nil {
		return 0, err
	}
	var survivors []*Proc
	for _, p := range c.Procs {
		if p != victim {
			survivors = append(survivors, p)
		}
	}
	if len(survivors) == 0 {
		return 0, errors.New("takeover needs at least two processes")
	}
	pctx, stop := context.WithCancel(ctx)
	defer stop()
	var gone atomic.Int64 // unix ns when the owner was reaped
	answered := make(chan time.Time, len(survivors))
	failed := make(chan error, len(survivors))
	var wg sync.WaitGroup
	for _, p := range survivors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for pctx.Err() == nil {
				start := time.Now()
				res, isErr, err := p.Client.Call(pctx, "memdisc", map[string]any{})
				if pctx.Err() != nil {
					return
				}
				if err != nil || isErr {
					failed <- fmt.Errorf("survivor pid %d: memdisc failed: %v %v (stderr: %s)", p.Pid(), err, res, p.Stderr())
					return
				}
				if g := gone.Load(); g != 0 && start.UnixNano() > g {
					answered <- time.Now()
					return
				}
			}
		}()
	}
	time.Sleep(20 * time.Millisecond) // let the survivors get going
	killed := time.Now()
	if err := c.Kill(victim); err != nil {
		return 0, err
	}
	gone.Store(time.Now().UnixNano())
	var took time.Duration
	select {
	case t := <-answered:
		took = t.Sub(killed)
	case err = <-failed:
	case <-time.After(30 * time.Second):
		err = errors.New("no survivor answered within 30s of the kill")
	case <-ctx.Done():
		err = ctx.Err()
	}
	stop()
	wg.Wait()
	if err != nil {
		return 0, err
	}
	if _, err := c.Add(ctx); err != nil {
		return took, err
	}
	return took, nil
}

// syncBuffer is a bytes.Buffer safe for a process's stderr copier and a
// concurrent reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
