package hub

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// Names in the hub's NATS configuration.
const (
	// hubAccount holds the hub's JetStream: the aggregate stream.
	hubAccount = "HUB"
)

// nodeAccount is the account a node's leaf link is bound to.
func nodeAccount(nodeID string) string { return "N_" + nodeID }

// apiPrefix is the JetStream API of a node's server, as the hub reaches
// it over the node's leaf link.
func apiPrefix(nodeID string) string { return "$JS." + nodeID + ".API" }

// deliverPrefix is where a node's server delivers what the hub sources.
func deliverPrefix(nodeID string) string { return "deliver." + nodeID }

// flowControl covers the flow-control replies the hub sends to a node's
// sourcing consumers (the node's server names its domain in them).
func flowControl(nodeID string) string { return "$JS.FC." + nodeID + ".>" }

// natsConf renders the hub's nats-server configuration: the server, its
// JetStream domain, the leaf listener and cluster, and the hub's account.
// It names no node and no user: it is written once per start and never
// reloaded. The nodes' accounts are added to the running server in
// process (accounts.go) and every connection is authenticated by the
// hub's authenticator (auth.go), so a join or a revoke leaves the
// configuration alone.
func natsConf(cfg *Config) string {
	var b strings.Builder
	q := func(s string) string { return fmt.Sprintf("%q", s) }
	fmt.Fprintf(&b, "server_name: %s\n", q(cfg.Name))
	fmt.Fprintf(&b, "max_payload: %d\n", maxPayload)
	fmt.Fprintf(&b, "jetstream {\n  store_dir: %s\n  domain: %s\n}\n", q(cfg.DataDir()), q(hubwire.Domain))
	fmt.Fprintf(&b, "leafnodes {\n  listen: %s\n  compression: %s\n", q(cfg.Leaf), q(compression(cfg.LeafCompression)))
	if cfg.TLS.Cert != "" {
		fmt.Fprintf(&b, "  tls {\n    cert_file: %s\n    key_file: %s\n  }\n", q(abs(cfg, cfg.TLS.Cert)), q(abs(cfg, cfg.TLS.Key)))
	}
	b.WriteString("}\n")
	if cfg.Cluster.Listen != "" {
		name := cfg.Cluster.Name
		if name == "" {
			name = "clumsies-hub"
		}
		fmt.Fprintf(&b, "cluster {\n  name: %s\n  listen: %s\n  routes: [", q(name), q(cfg.Cluster.Listen))
		for i, r := range cfg.Cluster.Routes {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(q(r))
		}
		b.WriteString("]\n}\n")
	}
	fmt.Fprintf(&b, "accounts {\n  %s {\n    jetstream: enabled\n  }\n}\n", hubAccount)
	return b.String()
}

func compression(on bool) string {
	if on {
		return "s2_auto"
	}
	return "off"
}

func abs(cfg *Config, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(cfg.Dir(), p)
}
