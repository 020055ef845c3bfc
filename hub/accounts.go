package hub

import (
	"fmt"
	"sync"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// accounts adds the nodes' accounts to the hub's running server, in
// process: no configuration is regenerated or reloaded, so a join costs
// the same whatever the registry holds, and nothing the server is doing
// (a source being set up, a link being admitted) sees its accounts
// replaced under it.
//
// A node's account holds only its leaf link. It exports the node's
// JetStream API and its flow control to the links account, which the hub's
// account reaches them through, and its deliver subjects to the hub's
// account, which imports them; the hub's account exports to
// it the services of its mirrors (the consumer creation and flow control
// on its team's catalog and on the hub ledger's events about its
// workspace) and its mirrors' deliveries, which it imports. Exports are
// approved for the accounts that may import them: a node's exports for
// the one account importing them, the hub's shared ones for each node's
// account, which imports only its own part (catalogconf.go).
//
// An account once added stays until the server stops: a revoked node's
// account keeps its imports, but the authenticator (auth.go) binds no
// link to it any more, so nothing flows through them; the next start
// leaves it out.
type accounts struct {
	ns *server.Server
	// onAdd is told of each account added once the hub's connection is
	// up (announceAccount); nil before.
	onAdd func(id string)

	mu       sync.Mutex
	linksAcc *server.Account // the links account, once set up (links)
	added    map[string]bool // node id -> its account is set up
	// shared holds the nodes whose accounts every routed hub has set up
	// too (or that were registered when this hub started): only they are
	// sourced (peers.go).
	shared map[string]bool
}

func newAccounts(ns *server.Server) *accounts {
	return &accounts{ns: ns, added: map[string]bool{}, shared: map[string]bool{}}
}

// share records that every hub of the cluster knows node id's account.
func (a *accounts) share(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.shared[id] = true
}

// isShared reports whether share was called for node id.
func (a *accounts) isShared(id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.shared[id]
}

// add sets up the account of node n, once; adding it again does nothing.
func (a *accounts) add(n hubwire.Node) error {
	added, err := a.addOnce(n)
	if added && a.onAdd != nil {
		a.onAdd(n.ID)
	}
	return err
}

// addOnce is add under mu; it reports whether it set the account up.
func (a *accounts) addOnce(n hubwire.Node) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.added[n.ID] {
		return false, nil
	}
	if err := a.setUp(n); err != nil {
		return false, fmt.Errorf("add the account of %s: %w", n.ID, err)
	}
	a.added[n.ID] = true
	return true, nil
}

// addAll adds the accounts of the active nodes of nodes.
func (a *accounts) addAll(nodes []hubwire.Node) error {
	for _, n := range nodes {
		if !n.Active() {
			continue
		}
		if err := a.add(n); err != nil {
			return err
		}
	}
	return nil
}

// ready reports whether node id's account is set up on this server.
func (a *accounts) ready(id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.added[id]
}

// linksAccount holds the hub account's way to every node: it imports
// each node's JetStream API and flow control, and the hub's account
// imports them from it with two wildcards. nats-server checks every
// import added for a cycle against every import of the account it comes
// from (checkServiceImportsForCycles); with the nodes' services imported
// into the hub's account directly, each node's imports from the hub's
// account were compared with 2 imports per registered node, so a join's
// set-up grew with the registry and a hub's start with its square. The
// hub's account now holds two service imports whatever the registry.
const linksAccount = "LINKS"

// The hub's account reaches node X's API on $JS.X.API.> and its flow
// control on $JS.FC.X.>, as nats-server names them. The links account
// takes the API on the same subjects and the flow control on
// linksFC.X.>: an import of the hub's account whose subject in the links
// account collided with the flow-control services the nodes import from
// the hub's account ($JS.FC.<stream>.>) would send every such import's
// cycle check through every node's import again.
const (
	linksAPI = "$JS.*.API.>"
	hubFC    = "$JS.FC.*.>"
	linksFC  = "$LINKS.FC.*.>"
)

// linksFlowControl is where the links account takes node nodeID's flow
// control.
func linksFlowControl(nodeID string) string { return "$LINKS.FC." + nodeID + ".>" }

// setUpLinks sets up the links account (links).
func (a *accounts) setUpLinks() error {
	hub, err := a.ns.LookupAccount(hubAccount)
	if err != nil {
		return fmt.Errorf("look up the hub's account: %w", err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	_, err = a.links(hub)
	return err
}

// links returns the links account, set up with its exports to the hub's
// account and the hub's imports of them on first use; the caller holds
// mu.
func (a *accounts) links(hub *server.Account) (*server.Account, error) {
	if a.linksAcc != nil {
		return a.linksAcc, nil
	}
	links, _ := a.ns.LookupOrRegisterAccount(linksAccount)
	only := []*server.Account{hub}
	steps := []struct {
		what string
		do   func() error
	}{
		{"export the nodes' APIs", func() error { return links.AddServiceExport(linksAPI, only) }},
		{"export the nodes' flow control", func() error { return links.AddServiceExport(linksFC, only) }},
		{"import the nodes' APIs", func() error { return hub.AddServiceImport(links, linksAPI, "") }},
		{"import the nodes' flow control", func() error { return hub.AddServiceImport(links, hubFC, linksFC) }},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			return nil, fmt.Errorf("set up the links account: %s: %w", s.what, err)
		}
	}
	a.linksAcc = links
	return links, nil
}

// setUp registers node n's account with its exports and imports; the
// caller holds mu. Each export is made before the import it allows.
func (a *accounts) setUp(n hubwire.Node) error {
	hub, err := a.ns.LookupAccount(hubAccount)
	if err != nil {
		return fmt.Errorf("look up the hub's account: %w", err)
	}
	links, err := a.links(hub)
	if err != nil {
		return err
	}
	acc, _ := a.ns.LookupOrRegisterAccount(nodeAccount(n.ID))
	only := func(acc *server.Account) []*server.Account { return []*server.Account{acc} }
	steps := []struct {
		what string
		do   func() error
	}{
		{"export the node's API", func() error { return acc.AddServiceExport(apiPrefix(n.ID)+".>", only(links)) }},
		{"export the node's deliveries", func() error { return acc.AddStreamExport(deliverPrefix(n.ID)+".>", only(hub)) }},
		{"export the node's flow control", func() error { return acc.AddServiceExport(flowControl(n.ID), only(links)) }},
		{"import the node's API", func() error { return links.AddServiceImport(acc, apiPrefix(n.ID)+".>", "") }},
		{"import the node's deliveries", func() error { return hub.AddStreamImport(acc, deliverPrefix(n.ID)+".>", "") }},
		{"import the node's flow control", func() error { return links.AddServiceImport(acc, linksFlowControl(n.ID), flowControl(n.ID)) }},
		{"export the mirrors' deliveries", func() error { return hub.AddStreamExport(mirrorsExport, only(acc)) }},
		{"import the mirrors' deliveries", func() error { return acc.AddStreamImport(hub, catalogDeliver(n), "") }},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			return fmt.Errorf("%s: %w", s.what, err)
		}
	}
	// The hub's server maps "$JS.hub.API.>" to "$JS.API.>" in the
	// account of a leaf link (leafnode.go, the JetStream domain mapping):
	// the node's requests arrive on the plain API subjects.
	for _, s := range nodeServiceExports(n) {
		if err := hub.AddServiceExport(s, only(acc)); err != nil {
			return fmt.Errorf("export %s: %w", s, err)
		}
	}
	for _, s := range nodeServices(n) {
		if err := acc.AddServiceImport(hub, s, ""); err != nil {
			return fmt.Errorf("import %s: %w", s, err)
		}
	}
	return nil
}

// leafPermissions are what node n's leaf link may do: publish only its
// deliveries, the replies to the hub's requests and its mirrors' requests;
// receive only the hub's requests to its JetStream API, their flow
// control and its mirrors' deliveries and answers.
func leafPermissions(n hubwire.Node) *server.Permissions {
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: append([]string{deliverPrefix(n.ID) + ".>", "_R_.>"}, catalogPublish(n)...)},
		Subscribe: &server.SubjectPermission{Allow: append([]string{apiPrefix(n.ID) + ".>", flowControl(n.ID)}, catalogSubscribe(n)...)},
	}
}
