// Package ui serves the dashboard of a workspace: the JSON API under
// /api/ (computed by package dash where the read models are) and the pages
// (Overview, Rules, a rule, a session, Drafts, Live, Commits and a commit or
// a range), a small script and a
// style sheet embedded in the binary that read the API and follow the
// ledger's live stream at /events. It works with no network. The routes,
// the token and the loopback rule are package web's.
package ui
