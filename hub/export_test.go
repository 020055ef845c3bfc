package hub

// LedgerLayout is the layout of the hub's ledger, for the tests.
var LedgerLayout = ledgerLayout{replicas: 1}
