package hubwire

import "github.com/clumsies/clumsies/evidence"

// TeamGate is what the hooks and the gates recorded over every session of
// a team's nodes, as the hub's evidence read model sums it: the team's
// stats evidence (Evidence) over all time, file edits and the gates'
// figures alone. The hub's /metrics gives it per team.
type TeamGate struct {
	Team string `json:"team"`
	// Edits counts the file-changing tool uses the hooks recorded
	// (attest.file_edit).
	Edits uint64 `json:"edits"`
	// Gate sums the gates' figures of the sessions (evidence.Gate).
	evidence.Gate
}
