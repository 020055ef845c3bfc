package hubwire

// ReviewDiff is a submitted draft held against the team object it was
// made on: GET /api/reviews/{id}/diff.
type ReviewDiff struct {
	ID string `json:"id"`
	// BaseRevision is the object's revision the draft was made on (0 for
	// a new object); BaseFound is false when the catalog no longer keeps
	// that revision, and the diff is then against the current one.
	BaseRevision uint64 `json:"baseRevision"`
	BaseFound    bool   `json:"baseFound"`
	// Diff is the change as a unified diff (a/PATH to b/PATH), "" when
	// the body is unchanged (a rename).
	Diff string `json:"diff"`
	// Warning, when set, is what the reviewer must know of the body
	// before accepting: it ends with memload's refer-reminder footer,
	// which Accept refuses.
	Warning string `json:"warning,omitempty"`
}

// Me is what a token may do at the hub: GET /api/me.
type Me struct {
	Name string `json:"name"`
	// Teams are the teams it may read; nil for the admin, who reads
	// every team.
	Teams []string `json:"teams"`
	// Reviewer reports that it may accept and decline its teams' drafts.
	Reviewer bool `json:"reviewer"`
}
