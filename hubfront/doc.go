// Package hubfront is the HTTP front of a hub as `clumsies hub serve`
// serves it: the hub's API under /api/, its metrics at /metrics for the
// admin only, and the team's dashboard at /, every answer hardened.
package hubfront
