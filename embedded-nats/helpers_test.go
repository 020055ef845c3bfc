package embeddednats

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// startServer starts a Server on dir and closes it when the test ends.
func startServer(tb testing.TB, s *Server) *Server {
	tb.Helper()
	if err := s.Start(); err != nil {
		tb.Fatalf("Start: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			tb.Errorf("Close: %v", err)
		}
	})
	return s
}

// connect opens a client connection to s and closes it when the test ends.
func connect(tb testing.TB, s *Server) *nats.Conn {
	tb.Helper()
	nc, err := s.Connect()
	if err != nil {
		tb.Fatalf("Connect: %v", err)
	}
	tb.Cleanup(nc.Close)
	return nc
}

// testStream is the stream the tests write to.
const (
	testStream  = "TEST"
	testSubject = "test.msgs"
)

// publishN creates the test stream if needed and publishes n messages to it.
func publishN(tb testing.TB, nc *nats.Conn, n int) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	js, err := jetstream.New(nc)
	if err != nil {
		tb.Fatalf("jetstream.New: %v", err)
	}
	_, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:     testStream,
		Subjects: []string{testSubject},
		Storage:  jetstream.FileStorage,
	})
	if err != nil {
		tb.Fatalf("create stream: %v", err)
	}
	for i := range n {
		if _, err := js.Publish(ctx, testSubject, fmt.Appendf(nil, "msg %d", i)); err != nil {
			tb.Fatalf("publish %d: %v", i, err)
		}
	}
}

// streamMsgs returns how many messages the test stream holds.
func streamMsgs(tb testing.TB, nc *nats.Conn) uint64 {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	js, err := jetstream.New(nc)
	if err != nil {
		tb.Fatalf("jetstream.New: %v", err)
	}
	st, err := js.Stream(ctx, testStream)
	if err != nil {
		tb.Fatalf("bind stream: %v", err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		tb.Fatalf("stream info: %v", err)
	}
	return info.State.Msgs
}
