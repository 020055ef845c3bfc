// Package treecheck makes the working tree a witness of what an agent
// changed: it keeps a snapshot of a workspace's files (size, times,
// identity and, where known, the git blob id of their content) and, at
// each check, names the files whose content changed since the previous
// check, with their blob ids before and after.
//
// The hooks run a check after every tool call and at the end of a turn,
// so a change is seen whatever made it: an edit tool, a shell command, a
// script, a build, another process. A check stats every file (no file is
// read unless its size, times or identity changed) and hashes only those;
// a file whose stat changed but whose content did not (touch, a rewrite
// of the same bytes) is no change.
//
// What it cannot see: changes inside .git, node_modules and the
// workspace's state folder (never walked), and nested repositories or
// worktrees inside the tree (checked from their own root); a change made
// and undone between two checks; which process made a change (the caller
// attributes it to the tool call whose window holds it, naming the other
// sessions with a call open at the time).
//
// One Store serves one workspace; checks of concurrent hook processes
// are serialised by a lock file beside the snapshot. It imports only the
// standard library.
package treecheck
