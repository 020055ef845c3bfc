package hublink

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/node"
)

// Link is the workspace's side of its link to a hub, as the owner runs it
// (node.Link): the leaf link signed with the node's key, the mirror of the
// team's catalog laid over the reads, the submission of the team's drafts
// and the recording of the hub's review outcomes. A process that owns the
// workspace again opens it again, once the previous Run returned.
type Link struct {
	id   Identity
	leaf *embeddednats.Leaf

	host node.LinkHost       // set by Open
	js   jetstream.JetStream // the owner's server
	team *Mirror             // nil for a node without a team
}

var _ node.Link = (*Link)(nil)

// New returns the link of the clone whose identity is id to the hub whose
// leaf URL is url. The team's catalog is id.Team's; none without one.
func New(id Identity, url string) (*Link, error) {
	leaf, err := id.Leaf(url)
	if err != nil {
		return nil, err
	}
	return &Link{id: id, leaf: leaf}, nil
}

// Leaf returns the leaf link and the JetStream domain, the node id.
func (l *Link) Leaf() (*embeddednats.Leaf, string) { return l.leaf, l.id.NodeID }

// Open opens the mirror of the team's catalog in the owner's server.
func (l *Link) Open(ctx context.Context, host node.LinkHost) error {
	l.host = host
	if l.id.Team == "" {
		return nil
	}
	js, err := jetstream.New(host.Conn)
	if err != nil {
		return fmt.Errorf("open the team catalog: %w", err)
	}
	m, err := OpenMirror(ctx, js, l.id.NodeID, l.id.Team, host.Logger)
	if err != nil {
		return fmt.Errorf("open the team catalog of team %s: %w", l.id.Team, err)
	}
	// A kick of the catalog's mirror kicks the mirror of the outcomes too.
	m.OnKick(func(ctx context.Context) error {
		return KickOutcomes(ctx, js, l.id.NodeID, l.id.Team, host.WorkspaceID)
	})
	l.js, l.team = js, m
	return nil
}

// WaitRevision waits until the team's catalog has reached revision rev
// or ctx ends.
func (l *Link) WaitRevision(ctx context.Context, rev uint64) error {
	if l.team == nil {
		return errors.New("the link has no team catalog")
	}
	return l.team.WaitRevision(ctx, rev)
}
