package main

import (
	"bufio"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nats-io/nats.go"
)

// pingFirstServer speaks the start of the NATS protocol: the first
// pingFirst connections get the server's own PING before their PONG, as
// a loaded nats-server can send them (nats-server#1174); the others a
// PONG to each PING.
func pingFirstServer(t *testing.T, pingFirst int) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for n := 0; ; n++ {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn, first bool) {
				defer c.Close()
				if _, err := c.Write([]byte(`INFO {"server_id":"test","version":"2.15.3","proto":1,"max_payload":1048576}` + "\r\n")); err != nil {
					return
				}
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if !strings.HasPrefix(line, "PING") {
						continue
					}
					answer := "PONG\r\n"
					if first {
						answer, first = "PING\r\n", false
					}
					if _, err := c.Write([]byte(answer)); err != nil {
						return
					}
				}
			}(c, n < pingFirst)
		}
	}()
	return "nats://" + l.Addr().String()
}

func TestConnectAgain_ServerPingBeforeItsPong(t *testing.T) {
	url := pingFirstServer(t, 1)
	var retries atomic.Int64
	nc, err := connectAgain(&retries, func() (*nats.Conn, error) { return nats.Connect(url, nats.NoReconnect()) })
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	nc.Close()
	if got := retries.Load(); got != 1 {
		t.Errorf("retries = %d, want 1 (the first handshake got the server's PING)", got)
	}
}

func TestConnectAgain_GivesUpAfterNodeTries(t *testing.T) {
	url := pingFirstServer(t, nodeTries)
	var retries atomic.Int64
	nc, err := connectAgain(&retries, func() (*nats.Conn, error) { return nats.Connect(url, nats.NoReconnect()) })
	if err == nil {
		nc.Close()
		t.Fatal("connected through a server that never answers the handshake")
	}
	if !strings.Contains(err.Error(), "expected 'PONG', got 'PING'") || retries.Load() != nodeTries-1 {
		t.Errorf("err = %v after %d retries, want the client's handshake error after %d", err, retries.Load(), nodeTries-1)
	}
}
