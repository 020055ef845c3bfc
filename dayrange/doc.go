// Package dayrange is the one definition of a range of UTC days as the
// dashboards, `clumsies stats` and the hub's stats take it: the last N
// days (today included), or a first and a last day (both included),
// either end open. It imports only the standard library.
package dayrange
