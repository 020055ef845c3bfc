// Package history generates the ledger of a workspace's past: the publish
// of its content tree some days ago, then agent sessions on most days
// since (hooks, setup, discovers, loads, refs with reasons, failed calls,
// rejections, reports), as an export that `clumsies import` stores. The
// dashboard's screenshots (`make screenshots`) show such a history.
package history
