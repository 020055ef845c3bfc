package main_test

import (
	"context"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/mcp"
)

func TestServe_NATSListenFlags(t *testing.T) {
	dir := newWorkspace(t)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"NotLoopback", []string{"--nats-listen", "0.0.0.0:4222", "--nats-token", "t"}, "--nats-listen-any"},
		{"NoToken", []string{"--nats-listen", "127.0.0.1:4222"}, "--nats-token"},
		{"NoPort", []string{"--nats-listen", "localhost", "--nats-token", "t"}, "host:port"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, dir, append([]string{"serve"}, tc.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
				t.Fatalf("got exit %d, stderr %q; want exit 2 mentioning %s", r.code, r.stderr, tc.want)
			}
		})
	}
}

// TestServe_NATSListenOnTakeover starts a serve that owns the workspace and
// a second one that asks for a TCP listener: the second says the owner's
// settings apply, and opens its listener when it takes over.
func TestServe_NATSListenOnTakeover(t *testing.T) {
	dir := newWorkspace(t)
	owner, _ := serve(t, dir)
	addr := freeAddr(t)
	const token = "listen-test-token"

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(binary, "serve", "--workspace", dir, "--nats-listen", addr)
	cmd.Env = append(cmd.Environ(), "CLUMSIES_NATS_TOKEN="+token)
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	cl, err := mcp.ConnectCommand(ctx, cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	setup(t, cl, "listener-session")
	if _, err := nats.Connect("nats://"+addr, nats.Token(token), nats.NoReconnect()); err == nil {
		t.Fatalf("%s answers while the other process owns the workspace", addr)
	}

	owner.Process.Kill()
	// The survivor takes over and opens its listener; its next call proves
	// the takeover is done.
	call(t, cl, "agentreport", map[string]any{"summary": "after the takeover"})
	nc, err := nats.Connect("nats://"+addr, nats.Token(token), nats.NoReconnect())
	if err != nil {
		t.Fatalf("connect to the new owner's listener: %v", err)
	}
	defer nc.Close()
	if _, err := nats.Connect("nats://"+addr, nats.Token("wrong"), nats.NoReconnect()); err == nil {
		t.Fatal("the listener let in a client with a wrong token")
	}
	cl.Close()
	if !strings.Contains(stderr.String(), "listener settings apply") {
		t.Fatalf("the second serve did not say whose listener settings apply: %q", stderr.String())
	}
}

// freeAddr returns a loopback address with a port free right now.
func freeAddr(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return "127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}
