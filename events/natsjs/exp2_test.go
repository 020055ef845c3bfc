package natsjs_test

import (
	"io"
	"net"
	"os"
	"syscall"

	"github.com/nats-io/nats-server/v2/server"
)

type spProvider struct{ s *server.Server }

func (p spProvider) InProcessConn() (net.Conn, error) {
	pipe, err := p.s.InProcessConn()
	if err != nil {
		return nil, err
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	fa, fb := os.NewFile(uintptr(fds[0]), "a"), os.NewFile(uintptr(fds[1]), "b")
	a, _ := net.FileConn(fa)
	b, _ := net.FileConn(fb)
	fa.Close()
	fb.Close()
	go func() { io.Copy(a, pipe); a.Close() }()
	go func() { io.Copy(pipe, a); pipe.Close() }()
	return b, nil
}
