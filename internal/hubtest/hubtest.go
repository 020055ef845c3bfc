// Package hubtest starts real hubs and real workspace nodes joined to
// them, for the tests of packages that need both sides of a leaf link.
// It may import hub, hublink, node and workspace.
package hubtest

import (
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// Wait bounds every wait on a condition: generous, for a loaded machine.
const Wait = 60 * time.Second

// FreePort returns a loopback port nobody listens on right now.
func FreePort(tb testing.TB) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Hub is a hub folder whose hub can be started and stopped.
type Hub struct {
	Dir string
	Cfg *hub.Config
	H   *hub.Hub
}

// NewHub makes a hub folder on loopback ports and starts its hub; the
// test's cleanup stops it.
func NewHub(tb testing.TB) *Hub {
	tb.Helper()
	dir := tb.TempDir()
	_, err := hub.Init(dir, hub.Config{Name: "test-hub", Data: "data",
		Leaf: "127.0.0.1:" + strconv.Itoa(FreePort(tb)), HTTP: "127.0.0.1:" + strconv.Itoa(FreePort(tb))})
	if err != nil {
		tb.Fatal(err)
	}
	cfg, err := hub.ReadConfig(dir)
	if err != nil {
		tb.Fatal(err)
	}
	th := &Hub{Dir: dir, Cfg: cfg}
	th.Start(tb)
	tb.Cleanup(th.Stop)
	return th
}

// Start starts the hub.
func (th *Hub) Start(tb testing.TB) {
	tb.Helper()
	h, err := hub.Start(context.Background(), th.Cfg, Logger())
	if err != nil {
		tb.Fatalf("start the hub: %v", err)
	}
	th.H = h
}

// Stop stops the hub, if it runs.
func (th *Hub) Stop() {
	if th.H != nil {
		th.H.Close()
		th.H = nil
	}
}

// Node is one clone of a workspace joined to a hub.
type Node struct {
	WS  *workspace.Workspace
	ID  hublink.Identity
	URL string
	// Team is the team whose catalog the owner mirrors; "" opens the node
	// without its team's catalog.
	Team string
	N    *node.Node
	// Link is the link the owner was last opened with.
	Link *hublink.Link
}

// Join makes a new workspace, joins it to th's hub as a member of team,
// and opens it as its owner with the leaf link (without its team's
// catalog: set Team and Open again for it); the test's cleanup closes it.
func Join(tb testing.TB, th *Hub, team string) *Node {
	tb.Helper()
	ws, _, err := workspace.Init(filepath.Join(tb.TempDir(), "repo"))
	if err != nil {
		tb.Fatal(err)
	}
	id, err := hublink.NewIdentity()
	if err != nil {
		tb.Fatal(err)
	}
	id.Team = team
	token, err := th.H.Invite(context.Background(), ws.ID(), team, "alice")
	if err != nil {
		tb.Fatal(err)
	}
	jt, err := hubwire.ParseJoinToken(token)
	if err != nil {
		tb.Fatal(err)
	}
	pub, _ := id.PublicKey()
	if _, err := th.H.Join(context.Background(), jt.Secret, id.NodeID, pub, ws.ID(), ""); err != nil {
		tb.Fatalf("join: %v", err)
	}
	tn := &Node{WS: ws, ID: id, URL: jt.Leaf}
	tn.Open(tb)
	tb.Cleanup(tn.Close)
	return tn
}

// Open opens the workspace as its owner, with the leaf link.
func (tn *Node) Open(tb testing.TB) {
	tb.Helper()
	id := tn.ID
	id.Team = tn.Team
	link, err := hublink.New(id, tn.URL)
	if err != nil {
		tb.Fatal(err)
	}
	n, err := node.Open(context.Background(), tn.WS, node.Options{Link: link, Sync: 1, Logger: Logger()})
	if err != nil {
		tb.Fatalf("open the workspace: %v", err)
	}
	tn.N, tn.Link = n, link
}

// Close closes the workspace, if open.
func (tn *Node) Close() {
	if tn.N != nil {
		tn.N.Close()
		tn.N = nil
	}
}

// Logger logs to stderr when HUB_TEST_LOG is set, else nowhere.
func Logger() *slog.Logger {
	if os.Getenv("HUB_TEST_LOG") == "" {
		return nil
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}
