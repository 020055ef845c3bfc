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
// A node's account holds only its leaf link. It exports to the hub's
// account the node's JetStream API, its deliver subjects and its flow
// control, which the hub's account imports; the hub's account exports to
// it the services of its mirrors (the consumer creation and flow control
// on its team's catalog and on the hub ledger's events about its
// workspace) and its mirrors' deliveries, which it imports. Exports name
// the one account that may import them.
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

	mu    sync.Mutex
	added map[string]bool // node id -> its account is set up
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

// setUp registers node n's account with its exports and imports; the
// caller holds mu. Each export is made before the import it allows.
func (a *accounts) setUp(n hubwire.Node) error {
	hub, err := a.ns.LookupAccount(hubAccount)
	if err != nil {
		return fmt.Errorf("look up the hub's account: %w", err)
	}
	acc, _ := a.ns.LookupOrRegisterAccount(nodeAccount(n.ID))
	only := func(acc *server.Account) []*server.Account { return []*server.Account{acc} }
	steps := []struct {
		what string
		do   func() error
	}{
		{"export the node's API", func() error { return acc.AddServiceExport(apiPrefix(n.ID)+".>", only(hub)) }},
		{"export the node's deliveries", func() error { return acc.AddStreamExport(deliverPrefix(n.ID)+".>", only(hub)) }},
		{"export the node's flow control", func() error { return acc.AddServiceExport(flowControl(n.ID), only(hub)) }},
		{"import the node's API", func() error { return hub.AddServiceImport(acc, apiPrefix(n.ID)+".>", "") }},
		{"import the node's deliveries", func() error { return hub.AddStreamImport(acc, deliverPrefix(n.ID)+".>", "") }},
		{"import the node's flow control", func() error { return hub.AddServiceImport(acc, flowControl(n.ID), "") }},
		{"export the mirrors' deliveries", func() error { return hub.AddStreamExport(catalogDeliver(n), only(acc)) }},
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
	for _, s := range nodeServices(n) {
		if err := hub.AddServiceExport(s, only(acc)); err != nil {
			return fmt.Errorf("export %s: %w", s, err)
		}
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
