package web_test

import (
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/views/web"
)

func TestListen(t *testing.T) {
	t.Run("Loopback", func(t *testing.T) {
		for _, tc := range []struct {
			addr, token string
			wantIP      string // the address bound; "" for any loopback
		}{
			{"0", "", "127.0.0.1"},
			{":0", "", "127.0.0.1"},
			{"127.0.0.1:0", "", "127.0.0.1"},
			{"localhost:0", "", ""},
			{"LocalHost:0", "", ""},
			{"127.0.0.1:0", "s3cret", "127.0.0.1"},
		} {
			t.Run(tc.addr, func(t *testing.T) {
				ln := mustListen(t, tc.addr, tc.token)
				ip := addrIP(t, ln)
				if !ip.IsLoopback() || (tc.wantIP != "" && ip.String() != tc.wantIP) {
					t.Errorf("Listen(%q): got %s, want %s", tc.addr, ln.Addr(), or(tc.wantIP, "a loopback address"))
				}
			})
		}
	})

	t.Run("IPv6Loopback", func(t *testing.T) {
		if probe, err := net.Listen("tcp", "[::1]:0"); err != nil {
			t.Skipf("this machine has no IPv6 loopback: %v", err)
		} else {
			probe.Close()
		}
		ln := mustListen(t, "[::1]:0", "")
		if ip := addrIP(t, ln); ip != netip.IPv6Loopback() {
			t.Errorf("got %s, want [::1]", ln.Addr())
		}
	})

	t.Run("NotLoopbackNeedsToken", func(t *testing.T) {
		for _, addr := range []string{"0.0.0.0:0", "[::]:0", "192.168.1.10:7333", "10.0.0.1:0", "example.com:7333", "[fe80::1%eth0]:0"} {
			for _, token := range []string{"", "  "} {
				ln, err := web.Listen(addr, token)
				if err == nil {
					ln.Close()
					t.Fatalf("Listen(%q, %q): got a listener on %s, want an error", addr, token, ln.Addr())
				}
				if !errors.Is(err, web.ErrTokenRequired) {
					t.Errorf("Listen(%q, %q): got %v, want an error wrapping ErrTokenRequired", addr, token, err)
				}
				for _, want := range []string{"--token", "CLUMSIES_TOKEN"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("Listen(%q, %q): got %q, want it to mention %s", addr, token, err, want)
					}
				}
			}
		}
	})

	t.Run("AllInterfacesWithToken", func(t *testing.T) {
		ln := mustListen(t, "0.0.0.0:0", "s3cret")
		if ip := addrIP(t, ln); !ip.IsUnspecified() {
			t.Errorf("got %s, want 0.0.0.0", ln.Addr())
		}
	})

	t.Run("Invalid", func(t *testing.T) {
		for _, addr := range []string{"", "127.0.0.1", "localhost", "127.0.0.1:http", "127.0.0.1:70000", ":-1", "1:2:3"} {
			ln, err := web.Listen(addr, "s3cret")
			if err == nil {
				ln.Close()
				t.Errorf("Listen(%q): got a listener on %s, want an error", addr, ln.Addr())
				continue
			}
			if !strings.Contains(err.Error(), "want PORT, :PORT or HOST:PORT") {
				t.Errorf("Listen(%q): got %q, want it to say what an address looks like", addr, err)
			}
		}
	})

	t.Run("PortTaken", func(t *testing.T) {
		ln := mustListen(t, "127.0.0.1:0", "")
		if again, err := web.Listen(ln.Addr().String(), ""); err == nil {
			again.Close()
			t.Fatalf("Listen(%s) twice: got nil error, want address in use", ln.Addr())
		}
	})
}

func mustListen(tb testing.TB, addr, token string) net.Listener {
	tb.Helper()
	ln, err := web.Listen(addr, token)
	if err != nil {
		tb.Fatalf("Listen(%q, %q): %v", addr, token, err)
	}
	tb.Cleanup(func() { ln.Close() })
	return ln
}

func addrIP(tb testing.TB, ln net.Listener) netip.Addr {
	tb.Helper()
	ap, err := netip.ParseAddrPort(ln.Addr().String())
	if err != nil {
		tb.Fatalf("parse %s: %v", ln.Addr(), err)
	}
	return ap.Addr().Unmap()
}

func or(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}
