// Package catalog owns the decisions taken on the catalog: publishing, which
// compares the content tree on disk with the published manifest and plans
// the catalog.publish and catalog.remove events that bring the manifest in
// line, and the drafts aggregate, whose decisions (DecideDraft for the
// agents' changes, DecideReview for their review) and one fold
// (EvolveDraft) every writer and the projections share. It imports
// events, content and the standard library; it reads nothing but what it is
// given.
package catalog
