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
// JetStream domain, the leaf listener and cluster, the hub's account and
// one account per active node. A node's account holds only its leaf link
// and exports to the hub the node's JetStream API, its deliver subjects
// and its flow control; its user may publish only deliveries and replies
// and receive only those requests. The file is regenerated and reloaded
// whenever a node joins or is revoked (nats-server must know every account
// before it starts).
func natsConf(cfg *Config, userKey string, nodes []hubwire.Node) string {
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
	b.WriteString("accounts {\n")
	fmt.Fprintf(&b, "  %s {\n    jetstream: enabled\n    users: [{nkey: %s}]\n    imports: [\n", hubAccount, q(userKey))
	for _, n := range nodes {
		if !n.Active() {
			continue
		}
		acc := q(nodeAccount(n.ID))
		fmt.Fprintf(&b, "      {service: {account: %s, subject: %s}}\n", acc, q(apiPrefix(n.ID)+".>"))
		fmt.Fprintf(&b, "      {stream: {account: %s, subject: %s}}\n", acc, q(deliverPrefix(n.ID)+".>"))
		fmt.Fprintf(&b, "      {service: {account: %s, subject: %s}}\n", acc, q(flowControl(n.ID)))
	}
	b.WriteString("    ]\n")
	writeCatalogExports(&b, nodes)
	b.WriteString("  }\n")
	for _, n := range nodes {
		if !n.Active() {
			continue
		}
		fmt.Fprintf(&b, "  %s {\n", q(nodeAccount(n.ID)))
		fmt.Fprintf(&b, "    users: [{nkey: %s, allowed_connection_types: [\"LEAFNODE\"], permissions: {\n", q(n.PublicKey))
		fmt.Fprintf(&b, "      publish: {allow: [%s, \"_R_.>\", %s]}\n", q(deliverPrefix(n.ID)+".>"), quoteAll(catalogPublish(n)))
		fmt.Fprintf(&b, "      subscribe: {allow: [%s, %s, %s]}\n", q(apiPrefix(n.ID)+".>"), q(flowControl(n.ID)), quoteAll(catalogSubscribe(n)))
		b.WriteString("    }}]\n    exports: [\n")
		fmt.Fprintf(&b, "      {service: %s, accounts: [%s]}\n", q(apiPrefix(n.ID)+".>"), hubAccount)
		fmt.Fprintf(&b, "      {stream: %s, accounts: [%s]}\n", q(deliverPrefix(n.ID)+".>"), hubAccount)
		fmt.Fprintf(&b, "      {service: %s, accounts: [%s]}\n", q(flowControl(n.ID)), hubAccount)
		b.WriteString("    ]\n")
		writeCatalogImports(&b, n)
		b.WriteString("  }\n")
	}
	b.WriteString("}\n")
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
