// Package commitcheck judges a git change (a commit or a range
// BASE..HEAD) against a workspace's policy from its ledger: it names the
// change (Resolve), reads the ledger into the evidence of what agents
// wrote (ReadEvidence), attributes the change's files and checks them,
// with the findings of the rules' pattern checks on the added lines
// (Judge), and lists a branch's last commits, optionally those that name
// a session or a rule (List). clumsies check (without --key) and the
// workspace dashboard's commit pages both go through it, so they show
// the same table.
//
// It imports attest, gitrepo, rulecheck, content, catalog, events and
// workspace; it knows nothing of the owner, HTTP or the command line.
package commitcheck
