package embeddednats

import (
	"errors"
	"fmt"
	"net"
	"strconv"

	"github.com/nats-io/nats-server/v2/server"
)

// Limits of the embedded server.
const (
	// MaxPayload is the largest message the server takes, in bytes. It
	// holds the largest event (events.MaxEventSize, 7 MiB) with room for
	// headers; nats-server's default (1 MiB) does not.
	MaxPayload = 8 << 20
	// DefaultMaxStore is the JetStream store limit when Server.MaxStore is
	// zero. An explicit limit replaces nats-server's own default, 75% of
	// the disk space free at start (with the store already on the disk
	// counted against it), which refuses writes on a nearly full disk
	// even after space is freed.
	DefaultMaxStore int64 = 256 << 30 // typed: it does not fit a 32-bit int
	// MaxMemory is JetStream's budget for memory-backed storage (the
	// workspace's streams are on disk; the readers' account reserves
	// ReaderLimits.MaxMemory of it). An explicit budget replaces
	// nats-server's own default, 75% of the system's memory or of the Go
	// memory limit when one is set: the soft limit a serving process sets
	// (GOMEMLIMIT or serve's own) would otherwise leave too little for the
	// readers' account and JetStream would not start.
	MaxMemory = 1 << 30
)

// serverName is the base of the nats-server name. The name is stable across
// restarts and never random; with a Domain it becomes "clumsies-<domain>" so
// that workspaces seen by one hub have distinct names.
const serverName = "clumsies"

// options turns the Server's fields into nats-server options. It checks the
// fields and touches nothing on disk.
func (s *Server) options() (*server.Options, error) {
	if s.Dir == "" {
		return nil, errors.New("embeddednats: Dir is empty")
	}
	if s.MaxStore < 0 {
		return nil, fmt.Errorf("embeddednats: MaxStore %d is negative", s.MaxStore)
	}
	if s.Sync != SyncAlways && s.Sync != SyncInterval && s.Sync != SyncGroup {
		return nil, fmt.Errorf("embeddednats: unknown sync mode %d", int(s.Sync))
	}
	o := &server.Options{
		ServerName:      serverName,
		JetStream:       true,
		JetStreamDomain: s.Domain,
		// nats-server puts its store in StoreDir/jetstream.
		StoreDir: s.Dir,
		// The caller owns signal handling.
		NoSigs: true,
		// Every message is fsynced before its ack; otherwise JetStream's
		// periodic sync (SyncInterval left at its default) applies, and
		// with SyncGroup the caller's StreamSync. A stream of one replica
		// writes every message to its block file before the ack in both
		// modes (nats-server flushes in place unless a stream is
		// replicated), so that an fsync after the ack covers it.
		SyncAlways: s.Sync == SyncAlways,
		MaxPayload: MaxPayload,
		// An explicit store limit, whatever the disk holds at start.
		JetStreamMaxStore:  s.maxStore(),
		JetStreamMaxMemory: MaxMemory,
	}
	if s.Domain != "" {
		o.ServerName = serverName + "-" + s.Domain
	}
	if s.Leaf != nil {
		if err := s.leafOptions(o); err != nil {
			return nil, err
		}
	}
	if s.Listen == "" {
		o.DontListen = true
		return o, nil
	}
	if s.Token == "" {
		return nil, fmt.Errorf("embeddednats: Listen %q needs a Token", s.Listen)
	}
	host, portText, err := net.SplitHostPort(s.Listen)
	if err != nil {
		return nil, fmt.Errorf("parse Listen %q: %w", s.Listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("parse Listen %q: bad port %q", s.Listen, portText)
	}
	if port == 0 {
		port = server.RANDOM_PORT // nats-server reads 0 as its default port, 4222
	}
	o.Host, o.Port = host, port
	s.access = newAccess(s.Token, s.ReadSubjects)
	o.CustomClientAuthentication = s.access
	o.Accounts = []*server.Account{server.NewAccount(ReadersAccount)}
	o.MaxSubs = MaxReaderSubs
	return o, nil
}

// maxStore returns the JetStream store limit in bytes.
func (s *Server) maxStore() int64 {
	if s.MaxStore == 0 {
		return DefaultMaxStore
	}
	return s.MaxStore
}

// leafOptions adds the hub link to o.
func (s *Server) leafOptions(o *server.Options) error {
	r, err := s.Leaf.remote(s.Domain)
	if err != nil {
		return err
	}
	o.LeafNode.Remotes = []*server.RemoteLeafOpts{r}
	o.LeafNode.ReconnectInterval = leafReconnect
	// The flow-control replies of the hub's sourcing consumers then name
	// this server's domain ($JS.FC.<domain>.>), so that the hub can route
	// them to this node and no other; acks carry the domain too.
	o.FeatureFlags = map[string]bool{server.FeatureFlagJsAckFormatV2: true}
	return nil
}
