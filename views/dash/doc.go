// Package dash computes the dashboard's JSON API (overview, rules, a rule,
// sessions, a session, drafts) from the read models of a workspace, never
// by replaying the ledger. Answer runs where the read models are (in the
// process that owns the workspace); its Reply crosses the owner's socket
// as it is, and the HTTP front (package ui) writes it out. The commit
// pages (PageCommit, PageCommits) are the exception: they are judged from
// the ledger and the git repository, and the owner answers them itself
// (package node, with commitcheck); dash only names them.
package dash
