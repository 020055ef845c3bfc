// Package stats is a workspace's stats as `clumsies stats` gives them
// (its --json shape is stable: fields may be added, none may change),
// computed from the read models (node.Stats): usage per rule and
// constraint, tool metrics, sessions, and what the hooks show, the
// compliance of each session and the evidence of its edits.
package stats
