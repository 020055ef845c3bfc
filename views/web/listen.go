package web

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// ErrTokenRequired means Listen was asked to bind an address that is not
// loopback without a token.
var ErrTokenRequired = errors.New("web: a non-loopback address needs a token")

// ErrBadAddress means Listen was given an address it cannot read.
var ErrBadAddress = errors.New("web: invalid listen address")

// Listen opens the TCP listener for addr:
//
//   - "PORT" or ":PORT" binds 127.0.0.1:PORT: loopback unless told otherwise;
//   - "127.0.0.1:PORT" (any 127.0.0.0/8 address), "[::1]:PORT" and
//     "localhost:PORT" bind that loopback address;
//   - anything else ("0.0.0.0:PORT", "[::]:PORT", a LAN address, a host
//     name other than localhost) binds as given, but only with a token that
//     is not blank: otherwise Listen returns an error wrapping
//     ErrTokenRequired that says how to give one.
//
// PORT must be a number (0 picks a free port): an address Listen cannot
// read gives an error wrapping ErrBadAddress. A loopback name that turns
// out to bind a non-loopback address is refused the same way as a missing
// token. A failure to listen (the address in use) wraps the system's error.
func Listen(addr, token string) (net.Listener, error) {
	host, port, err := splitAddr(addr)
	if err != nil {
		return nil, err
	}
	bind := net.JoinHostPort(host, port)
	hasToken := strings.TrimSpace(token) != ""
	if !isLoopbackHost(host) && !hasToken {
		return nil, needToken(bind)
	}
	ln, err := net.Listen("tcp", bind)
	if err != nil {
		return nil, fmt.Errorf("web: listen on %s: %w", bind, err)
	}
	if !hasToken && !isLoopbackHost(hostOf(ln.Addr().String())) {
		// localhost resolved to something else (a hosts file, say).
		bound := ln.Addr().String()
		ln.Close()
		return nil, needToken(fmt.Sprintf("%s (bound %s)", bind, bound))
	}
	return ln, nil
}

func needToken(bind string) error {
	return fmt.Errorf("%w: %s is not a loopback address, so anyone who can reach it could use this workspace; "+
		"drop --no-token (a token is then kept in .clumsies/state/http-token), or give one with --token-file PATH "+
		"or CLUMSIES_TOKEN (clients then send Authorization: Bearer <token>), or listen on 127.0.0.1", ErrTokenRequired, bind)
}

// splitAddr returns the host and port to bind for addr, with the loopback
// default for a bare port.
func splitAddr(addr string) (host, port string, err error) {
	if isPort(addr) {
		return "127.0.0.1", addr, nil
	}
	host, port, err = net.SplitHostPort(addr)
	if err != nil || !isPort(port) {
		return "", "", fmt.Errorf("%w %q: want PORT, :PORT or HOST:PORT", ErrBadAddress, addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return host, port, nil
}

// isPort reports whether s is a TCP port number.
func isPort(s string) bool {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 16)
	return err == nil
}

// isLoopbackHost reports whether host (a name or an IP address, with or
// without brackets) is localhost or a loopback address.
func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// hostOf returns the host of a host:port, or hostport itself when it has
// no port.
func hostOf(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}
