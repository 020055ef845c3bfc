package otelcoltest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// startWithin bounds how long a collector may take to listen.
const startWithin = time.Minute

// Collector is a running collector.
type Collector struct {
	// HTTP and GRPC are its OTLP endpoints: http://127.0.0.1:PORT.
	HTTP, GRPC string
	out        string // the exporter's file
	log        string // the collector's own output
	cmd        *exec.Cmd
	logf       *os.File
	done       chan struct{}
}

// Start starts a collector on free loopback ports; the test's cleanup
// stops it.
func Start(tb testing.TB) *Collector {
	tb.Helper()
	c, err := Run(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(c.Stop)
	return c
}

// Run starts a collector on free loopback ports, keeping its files in
// dir, and returns once it listens. Stop stops it.
func Run(dir string) (*Collector, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	grpcAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	httpAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	c := &Collector{
		HTTP: "http://" + httpAddr, GRPC: "http://" + grpcAddr,
		out: filepath.Join(dir, "received.jsonl"), log: filepath.Join(dir, "collector.log"),
		done: make(chan struct{}),
	}
	cfg := fmt.Sprintf(`receivers:
  otlp:
    protocols:
      grpc:
        endpoint: %s
      http:
        endpoint: %s
exporters:
  jsonlines:
    path: %s
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [jsonlines]
    metrics:
      receivers: [otlp]
      exporters: [jsonlines]
`, grpcAddr, httpAddr, c.out)
	cfgFile := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o644); err != nil {
		return nil, fmt.Errorf("write the collector's config: %w", err)
	}
	if c.logf, err = os.Create(c.log); err != nil {
		return nil, fmt.Errorf("make the collector's log: %w", err)
	}
	c.cmd = exec.Command(bin, "--config", "file:"+cfgFile)
	c.cmd.Stdout, c.cmd.Stderr = c.logf, c.logf
	if err := c.cmd.Start(); err != nil {
		c.logf.Close()
		return nil, fmt.Errorf("start the collector: %w", err)
	}
	go func() { c.cmd.Wait(); close(c.done) }()
	for _, addr := range []string{grpcAddr, httpAddr} {
		if err := waitListening(addr, c.done, startWithin); err != nil {
			c.Stop()
			return nil, fmt.Errorf("the collector does not listen at %s: %w\n%s", addr, err, c.Log())
		}
	}
	return c, nil
}

// Stop stops the collector: an interrupt, then a kill after 30 s.
func (c *Collector) Stop() {
	c.cmd.Process.Signal(os.Interrupt)
	select {
	case <-c.done:
	case <-time.After(30 * time.Second):
		c.cmd.Process.Kill()
		<-c.done
	}
	c.logf.Close()
}

// Log returns what the collector wrote on stdout and stderr so far.
func (c *Collector) Log() string {
	b, _ := os.ReadFile(c.log)
	return string(b)
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// waitListening waits until addr accepts a connection, or the process
// ends (exited).
func waitListening(addr string, exited <-chan struct{}, within time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			conn.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-exited:
			return fmt.Errorf("the collector exited: %w", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
