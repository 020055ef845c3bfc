package hub

// LedgerLayout is the layout of the hub's ledger, for the tests.
var LedgerLayout = ledgerLayout{replicas: 1}

// AccountReady reports whether node id's account is set up on h's server.
func (h *Hub) AccountReady(id string) bool { return h.accounts.ready(id) }

// SetMaxNodes lowers the most active nodes h takes (MaxNodes).
func (h *Hub) SetMaxNodes(n int) { h.maxNodes = n }
