package embeddednats

import (
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Leaf is the outbound leaf-node link of a workspace's server to a hub. The
// workspace dials out and needs no listener of its own.
//
// Whatever the hub sends or asks for, the link never carries the
// workspace's ledger subjects or its read service (DeniedSubjects, in both
// directions), nor a JetStream request that would change or remove the
// workspace's streams: the hub may read the ledger through the JetStream
// consumer API of the server's domain, and nothing else.
type Leaf struct {
	// URL is the hub's leaf-node listener, nats-leaf://host:port (or
	// tls://host:port).
	URL string
	// Seed is the node's nkey seed (private): the server signs the hub's
	// nonce with it; the hub knows only the public key.
	Seed string
	// Compress turns on S2 compression of the link (worth it over a WAN;
	// it costs about 2.5 MB of buffers per link at the hub).
	Compress bool
	// Quiet keeps the failed dials of the hub at debug level. Without it
	// the first one is said once at warn level, in clumsies' words; a
	// command that does not need the hub sets it.
	Quiet bool
}

// DeniedSubjects are never carried by a leaf link, in either direction:
// the ledger's subjects and the owner's read service.
var DeniedSubjects = []string{"clumsies.>", "clumsiesrpc.>"}

// deniedAPI are the JetStream API requests, relative to "$JS.<domain>.API.",
// that the hub may not send into the workspace: nothing that creates,
// changes, purges or deletes a stream or its messages.
var deniedAPI = []string{
	"STREAM.CREATE.>", "STREAM.UPDATE.>", "STREAM.DELETE.>", "STREAM.PURGE.>",
	"STREAM.MSG.DELETE.>", "STREAM.RESTORE.>", "STREAM.SNAPSHOT.>",
	"STREAM.PEER.>", "STREAM.LEADER.>", "ACCOUNT.>", "META.>", "SERVER.>",
}

// leafReconnect is how long the server waits before dialing the hub again
// after a link dropped or failed.
const leafReconnect = time.Second

// remote turns l into nats-server's remote leaf options for a server of
// the given JetStream domain.
func (l *Leaf) remote(domain string) (*server.RemoteLeafOpts, error) {
	if domain == "" {
		return nil, errors.New("embeddednats: a Leaf needs a Domain")
	}
	u, err := url.Parse(l.URL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("embeddednats: hub URL %q: want nats-leaf://host:port", l.URL)
	}
	if l.Seed == "" {
		return nil, errors.New("embeddednats: a Leaf needs the node's Seed")
	}
	deny := append([]string{}, DeniedSubjects...)
	imports := append([]string{}, deny...)
	for _, s := range deniedAPI {
		imports = append(imports, "$JS."+domain+".API."+s, "$JS.API."+s)
	}
	mode := server.CompressionOff
	if l.Compress {
		mode = server.CompressionS2Auto
	}
	r := &server.RemoteLeafOpts{
		URLs:        []*url.URL{u},
		Nkey:        l.Seed,
		DenyImports: imports,
		DenyExports: deny,
		Compression: server.CompressionOpts{Mode: mode},
		TLS:         u.Scheme == "tls",
	}
	return r, nil
}

// Linked reports whether the server's leaf link to the hub is up now.
func (s *Server) Linked() bool {
	ns, err := s.running()
	if err != nil {
		return false
	}
	lz, err := ns.Leafz(nil)
	return err == nil && len(lz.Leafs) > 0
}
