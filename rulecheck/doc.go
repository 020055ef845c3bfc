// Package rulecheck runs the checks a rule declares in its front matter
// (content.Check) on a change: the patterns on the lines a change adds to
// each file in scope (File, Range), the commands on the changed files
// (Commands), each result naming the rule, its version and the
// constraint the check stands for. It owns which files a check applies
// to, what counts as an added line, and the bounds of a command's run.
// It imports the standard library, content and textdiff only; reading
// the files and the ledger is its callers'.
package rulecheck
