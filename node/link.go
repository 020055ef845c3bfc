package node

import (
	"context"
	"log/slog"

	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/catalog"
	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
)

// Link is the workspace's link to its team at a hub, as the owner uses it:
// the leaf link its server dials, the team's catalog laid over the reads
// (Overlay), the submission of a team's draft after it is recorded, and
// what keeps the team's side in step while the owner runs. hublink
// implements it; a workspace without a hub has none.
type Link interface {
	// Leaf returns the leaf link the owner's server dials and the
	// JetStream domain the server serves under (the node id).
	Leaf() (*embeddednats.Leaf, string)
	// Open opens the link's side in the owner's server through host; the
	// overlay serves what it holds from then on, whether the hub is
	// reachable or not. The owner works without the link if it fails.
	Open(ctx context.Context, host LinkHost) error
	// Run keeps the team's side in step until ctx ends, then releases
	// what Open opened.
	Run(ctx context.Context)
	Overlay
	// AfterRecord is told of each draft event recorded in the workspace's
	// ledger (by the owner, for any process); it submits draft id to the
	// hub when it is the team's, and reports whether it did.
	AfterRecord(ctx context.Context, draftID string) (bool, error)
}

// LinkHost is what the owner lends its link.
type LinkHost struct {
	// Conn is a connection to the owner's server.
	Conn *nats.Conn
	// Linked reports whether the server's leaf link is up now.
	Linked      func() bool
	WorkspaceID string
	Logger      *slog.Logger
	// Decide records the event that decide makes of the facts of a
	// draft: once the read models are open (else an error wrapping
	// ErrProjector), deciding again when another draft event came first,
	// and waiting until the read models applied it; false when decide
	// records nothing.
	Decide func(ctx context.Context, draftID string, decide DraftDecision) (bool, error)
}

// DraftDecision makes the event to record from the facts of a draft; ok
// false records nothing.
type DraftDecision func(f catalog.DraftFacts) (ev events.Event, ok bool, err error)

// openLink opens l in the owner's server and runs it until Close; a link
// that cannot be opened is logged, and the workspace works without it.
func (n *Node) openLink(ctx context.Context, l Link) {
	if l == nil {
		return
	}
	host := LinkHost{Conn: n.Conn, Linked: n.NATS.Linked, WorkspaceID: n.WS.ID(), Logger: n.logger, Decide: n.decideDraft}
	if err := l.Open(ctx, host); err != nil {
		n.logger.Error("working without the team's catalog", "err", err)
		return
	}
	rctx, stop := context.WithCancel(context.Background())
	n.link, n.linkStop = l, stop
	n.linkDone.Add(1)
	go func() {
		defer n.linkDone.Done()
		l.Run(rctx)
	}()
}

// closeLink stops the link's Run and waits for it.
func (n *Node) closeLink() {
	if n.linkStop != nil {
		n.linkStop()
		n.linkDone.Wait()
	}
}

// overlay returns the link's overlay of the reads, or one that lays
// nothing over them without a link.
func (n *Node) overlay() Overlay {
	if n.link == nil {
		return noOverlay{}
	}
	return n.link
}
