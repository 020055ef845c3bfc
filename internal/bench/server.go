package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/workspace"
)

// store is a fresh embedded server with a workspace stream.
type store struct {
	ws  string
	srv *embeddednats.Server
	nc  *nats.Conn
	log *natsjs.Log
	js  jetstream.JetStream
}

func newStore(ctx context.Context, dir string, mode embeddednats.SyncMode) (*store, error) {
	return openStore(ctx, dir, mode, workspace.NewWorkspaceID())
}

// newStoreOf is newStore for a given workspace, with interval syncs.
func newStoreOf(ctx context.Context, dir, ws string) (*store, error) {
	return openStore(ctx, dir, embeddednats.SyncInterval, ws)
}

func openStore(ctx context.Context, dir string, mode embeddednats.SyncMode, ws string) (*store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	srv := &embeddednats.Server{Dir: dir, Sync: mode}
	if err := srv.Start(); err != nil {
		return nil, err
	}
	nc, err := srv.Connect()
	if err != nil {
		srv.Close()
		return nil, err
	}
	log, err := natsjs.Open(ctx, nc, ws, natsjs.Options{})
	if err != nil {
		nc.Close()
		srv.Close()
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	return &store{ws: ws, srv: srv, nc: nc, log: log, js: js}, nil
}

func (s *store) close() {
	s.nc.Close()
	s.srv.Close()
}

// tempDir returns a new folder under the run's temporary folder.
func (b *bench) tempDir(name string) string {
	dir, err := os.MkdirTemp(b.tmp, name+"-")
	if err != nil {
		fail(fmt.Errorf("create %s: %w", filepath.Join(b.tmp, name), err))
	}
	return dir
}

// startJetStream starts srv and returns a JetStream context on a
// connection to it, and a func that closes both.
func startJetStream(srv *embeddednats.Server) (jetstream.JetStream, *nats.Conn, func(), error) {
	if err := srv.Start(); err != nil {
		return nil, nil, nil, err
	}
	nc, err := srv.Connect()
	if err != nil {
		srv.Close()
		return nil, nil, nil, err
	}
	stop := func() { nc.Close(); srv.Close() }
	js, err := jetstream.New(nc)
	if err != nil {
		stop()
		return nil, nil, nil, err
	}
	return js, nc, stop, nil
}
