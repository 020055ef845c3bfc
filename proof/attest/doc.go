// Package attest ties a commit to the ledger: it folds a workspace's
// events into the evidence of what agents wrote (Evidence), attributes
// each file a commit changed to the agent edits whose recorded git blob
// ids it holds (Attribute), writes that as an in-toto Statement with the
// clumsies commit predicate in a DSSE envelope signed with an ed25519 key
// (Sign), verifies such an envelope (Open, Verify) and judges a change
// against the workspace's policy (Check, Markdown).
//
// It imports events and ledger (whose Checker proves the ledger it reads),
// the in-toto attestation bindings
// (github.com/in-toto/attestation/go/v1, with protobuf's JSON codec), the
// DSSE library (github.com/secure-systems-lab/go-securesystemslib/dsse)
// and golang.org/x/crypto/ssh for OpenSSH keys. It runs no git: the
// commit's changes come in as Change values (the gitrepo package reads
// them), so that the attribution is a plain function of the ledger and
// the trees.
package attest
