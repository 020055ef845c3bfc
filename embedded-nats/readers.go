package embeddednats

import (
	"context"
	"fmt"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// External readers (Server.Token holders) live in an account of their own,
// ReadersAccount, and never in the account of the workspace's own
// processes. There they find, under the same names, a mirror of every
// stream in Server.ReaderStreams, kept in step by the server, and the
// ReadSubjects as they are published. Whatever they do stays in their
// account: their consumers are consumers of the mirror, counted against the
// account's own limits (ReaderLimits); their inboxes are not the owner's;
// they can neither list, create nor delete the owner's consumers.
//
// The owner's account gives the readers' account only what a mirror needs:
// consumer creation (and deletion) on the mirrored streams, the mirror's
// delivery subjects and its flow control, all under subjects that the
// readers' permissions do not let them publish to.
const (
	// ReadersAccount is the account of external readers.
	ReadersAccount = "READERS"
	// mirrorAPI is the prefix under which the readers' account reaches the
	// owner's JetStream API for its mirrors.
	mirrorAPI = "clumsies.origin"
	// mirrorDeliver is the prefix of the mirrors' delivery subjects.
	mirrorDeliver = "clumsies.mirror"
)

// MaxReaderConns is the most connections readers may hold at once; past it
// a reader is refused at connect. MaxReaderSubs bounds the subscriptions of
// each connection (readers' and, on a server with a listener, every other).
var (
	MaxReaderConns = 64
	MaxReaderSubs  = 10000
)

// ReaderLimits are the JetStream limits of the readers' account.
var ReaderLimits = server.JetStreamAccountLimits{
	MaxMemory:    256 << 20,
	MaxStore:     -1, // the mirrors only: readers cannot create streams
	MaxConsumers: 256,
}

// setupReaders links the readers' account to the owner's and creates the
// mirrors. It runs once the server is ready.
func (s *Server) setupReaders(ns *server.Server) error {
	owner := ns.GlobalAccount()
	readers, err := ns.LookupAccount(ReadersAccount)
	if err != nil {
		return fmt.Errorf("find the readers' account: %w", err)
	}
	to := []*server.Account{readers}
	for _, name := range s.ReaderStreams {
		for _, subj := range []string{
			"$JS.API.CONSUMER.CREATE." + name,
			"$JS.API.CONSUMER.CREATE." + name + ".>",
			"$JS.API.CONSUMER.DELETE." + name + ".>",
		} {
			if err := owner.AddServiceExportWithResponse(subj, server.Streamed, to); err != nil {
				return fmt.Errorf("export %s: %w", subj, err)
			}
			if err := readers.AddServiceImport(owner, mirrorAPI+subj[len("$JS.API"):], subj); err != nil {
				return fmt.Errorf("import %s: %w", subj, err)
			}
		}
		fc := "$JS.FC." + name + ".>"
		if err := owner.AddServiceExport(fc, to); err != nil {
			return fmt.Errorf("export %s: %w", fc, err)
		}
		if err := readers.AddServiceImport(owner, fc, fc); err != nil {
			return fmt.Errorf("import %s: %w", fc, err)
		}
	}
	for _, subj := range append([]string{mirrorDeliver + ".>"}, s.ReadSubjects...) {
		if err := owner.AddStreamExport(subj, to); err != nil {
			return fmt.Errorf("export %s: %w", subj, err)
		}
		if err := readers.AddStreamImport(owner, subj, ""); err != nil {
			return fmt.Errorf("import %s: %w", subj, err)
		}
	}
	limits := ReaderLimits
	limits.MaxStreams = len(s.ReaderStreams)
	if err := readers.EnableJetStream(map[string]server.JetStreamAccountLimits{"": limits}, nil); err != nil {
		return fmt.Errorf("enable JetStream for readers: %w", err)
	}
	return s.createMirrors(ns)
}

// openToReaders sets up the readers' account and then lets readers in.
func (s *Server) openToReaders(ns *server.Server) error {
	readers, err := ns.LookupAccount(ReadersAccount)
	if err != nil {
		return fmt.Errorf("find the readers' account: %w", err)
	}
	// With accounts configured, nats-server enables JetStream only where
	// told: the workspace's own account keeps it, with no limits of its own
	// (the store limit applies).
	if owner := ns.GlobalAccount(); !owner.JetStreamEnabled() {
		if err := owner.EnableJetStream(nil, nil); err != nil {
			return fmt.Errorf("enable JetStream for the workspace: %w", err)
		}
	}
	s.access.account.Store(readers)
	if err := s.setupReaders(ns); err != nil {
		s.access.account.Store(nil)
		return err
	}
	s.access.open.Store(true)
	return nil
}

// createMirrors creates (or finds) the readers' mirror of each of
// ReaderStreams, as the readers' account's administrator.
func (s *Server) createMirrors(ns *server.Server) error {
	if len(s.ReaderStreams) == 0 {
		return nil
	}
	nc, err := nats.Connect(ns.ClientURL(), nats.InProcessServer(ns), nats.Token(string(s.access.admin)))
	if err != nil {
		return fmt.Errorf("connect to the readers' account: %w", err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	for _, name := range s.ReaderStreams {
		_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
			Name:        name,
			Description: "read-only mirror of " + name + " for external readers",
			Storage:     jetstream.FileStorage,
			Mirror: &jetstream.StreamSource{
				Name:     name,
				External: &jetstream.ExternalStream{APIPrefix: mirrorAPI, DeliverPrefix: mirrorDeliver},
			},
			DenyDelete: true,
			DenyPurge:  true,
		})
		if err != nil {
			return fmt.Errorf("create the readers' mirror of %s: %w", name, err)
		}
	}
	return nil
}
