// Package metrics serves Prometheus metrics at /metrics: the ledger's tool
// calls, outcomes and latencies as the read models count them (so every
// process of a workspace reports the same figures, and a restart loses
// none), the stream's last sequence and the projector's lag, the live
// streams open in this process, owner changes, and the Go and process
// collectors.
package metrics
