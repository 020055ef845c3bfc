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
}

// Start starts a collector on free loopback ports; the test's cleanup
// stops it.
func Start(tb testing.TB) *Collector {
	tb.Helper()
	bin := Binary(tb)
	dir := tb.TempDir()
	grpcAddr, httpAddr := freeAddr(tb), freeAddr(tb)
	c := &Collector{
		HTTP: "http://" + httpAddr, GRPC: "http://" + grpcAddr,
		out: filepath.Join(dir, "received.jsonl"), log: filepath.Join(dir, "collector.log"),
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
		tb.Fatal(err)
	}
	logf, err := os.Create(c.log)
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, "--config", "file:"+cfgFile)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		tb.Fatalf("start the collector: %v", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	tb.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		logf.Close()
	})
	for _, addr := range []string{grpcAddr, httpAddr} {
		if err := waitListening(addr, done, startWithin); err != nil {
			tb.Fatalf("the collector does not listen at %s: %v\n%s", addr, err, c.Log())
		}
	}
	return c
}

// Log returns what the collector wrote on stdout and stderr so far.
func (c *Collector) Log() string {
	b, _ := os.ReadFile(c.log)
	return string(b)
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
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
