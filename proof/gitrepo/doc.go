// Package gitrepo reads what clumsies needs of a git repository: commits
// and their parents, the files a commit or a range changed with their
// blob ids, commit times, and the notes of a notes ref. It runs the git
// program (git must be on PATH) and imports only the standard library; it
// knows nothing of the ledger or of attestations.
package gitrepo
