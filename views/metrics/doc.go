// Package metrics serves Prometheus metrics at /metrics: the ledger's tool
// calls, outcomes and latencies as the read models count them (so every
// process of a workspace reports the same figures, and a restart loses
// none), the stream's last sequence and the projector's lag, the live
// streams open in this process, owner changes, what the gates recorded,
// and the Go and process collectors; and a hub's (HubHandler): its nodes'
// links and sourcing, and per team what the gates recorded, with the
// workspace's gate metrics' names under the hub's prefix (gate.go). It
// imports the hub's wire types only, never the hub.
package metrics
