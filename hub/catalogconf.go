package hub

import (
	"strings"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// maxPayload is the largest message the hub's server takes: a catalog
// entry holds a whole content file (up to 1 MiB) with its metadata.
const maxPayload = 8 << 20

// catalogAPI are the JetStream API requests, in the hub's account, that a
// mirror of team's catalog sends: the creation of its ordered consumer.
func catalogAPI(team string) []string {
	create := "$JS.API.CONSUMER.CREATE." + hubwire.CatalogStream(team)
	return []string{create, create + ".>"}
}

// catalogFlowControl are the flow-control replies of a mirror's consumer
// on team's catalog (the hub's consumers use the v1 subject format; the
// v2 one is listed so that a change of the hub's flags does not stall the
// mirrors).
func catalogFlowControl(team string) []string {
	return []string{"$JS.FC." + hubwire.CatalogStream(team) + ".>", "$JS.FC." + hubwire.Domain + ".*." + hubwire.CatalogStream(team) + ".>"}
}

// outcomesAPI is the JetStream API request, in the hub's account, of node
// n's mirror of the hub ledger's events about its workspace: the creation
// of its consumer, whose subject carries the filter (nats-server checks
// that it is the consumer's).
func outcomesAPI(n hubwire.Node) []string {
	return []string{"$JS.API.CONSUMER.CREATE." + hubwire.LedgerStream + ".*." + hubwire.LedgerSubject(n.Team, n.Workspace, ">")}
}

// outcomesFlowControl are the flow-control replies of a mirror's consumer
// on the hub's ledger.
func outcomesFlowControl() []string {
	return []string{"$JS.FC." + hubwire.LedgerStream + ".>", "$JS.FC." + hubwire.Domain + ".*." + hubwire.LedgerStream + ".>"}
}

// nodeServices are the hub account's services node n may call over its
// leaf link: the consumer creation and flow control of its mirrors.
func nodeServices(n hubwire.Node) []string {
	return mirrorServices(n.Team, outcomesAPI(n))
}

// mirrorServices are the catalog's services of team and the ledger's,
// with outcomes as the ledger consumer's creation.
func mirrorServices(team string, outcomes []string) []string {
	out := append(catalogAPI(team), catalogFlowControl(team)...)
	out = append(out, outcomes...)
	return append(out, outcomesFlowControl()...)
}

// nodeServiceExports are what the hub's account exports for the services
// of nodeServices: each subject as it is, but the ledger's consumer
// creation, which names the node's workspace, exported once for every
// node (outcomesExport).
func nodeServiceExports(n hubwire.Node) []string {
	return mirrorServices(n.Team, []string{outcomesExport})
}

// The hub's account exports the services and the deliveries that are a
// node's own (its ledger consumer's creation, its mirrors' deliveries)
// under one subject each for every node, approved for each node's account
// as it joins; each node's account imports its own part alone. The
// exports so stay as many whatever the registry: nats-server goes over
// every export of the account imported from when an import is added
// (hasServiceExportMatching, hasStreamExportMatching) and over every
// service export when one is added (lowestServiceExportResponseTime), so
// an export per node made each join cost more than the one before. What a
// node reaches is what its account imports (and its leaf link's
// permissions allow), not what the export's subject covers.
const (
	outcomesExport = "$JS.API.CONSUMER.CREATE." + hubwire.LedgerStream + ".>"
	mirrorsExport  = "catalog.deliver.>"
)

// catalogDeliver is where the hub delivers node n's mirrors: under
// mirrorsExport.
func catalogDeliver(n hubwire.Node) string { return hubwire.CatalogDeliverPrefix(n.ID) + ".>" }

// catalogPublish is what node n's leaf link may publish into the hub for
// its mirrors: the consumer requests (as the node addresses them, in the
// hub's domain) and their flow-control replies.
func catalogPublish(n hubwire.Node) []string {
	var out []string
	for _, s := range nodeServices(n) {
		out = append(out, domainAPI(s))
	}
	return out
}

// catalogSubscribe is what the hub may send to node n for its mirrors:
// the deliveries and the answers to its API requests.
func catalogSubscribe(n hubwire.Node) []string {
	return []string{catalogDeliver(n), "$JSC.R.>"}
}

// domainAPI turns a subject of the local JetStream API into the hub's
// domain's: "$JS.API.X" -> "$JS.hub.API.X". Other subjects are returned
// as they are.
func domainAPI(s string) string {
	return strings.Replace(s, "$JS.API.", hubwire.APIPrefix+".", 1)
}
