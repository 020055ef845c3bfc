package hubwire

// Health is what GET /api/health answers.
type Health struct {
	OK bool `json:"ok"`
	// Server is this hub's server name.
	Server string `json:"server"`
	// Leader is the server leading the aggregate ("" when unknown, or
	// this server alone).
	Leader string `json:"leader,omitempty"`
	// Applied is the last aggregate sequence the projector applied.
	Applied uint64 `json:"applied"`
	// Writer is true while this hub writes the aggregate's sources: a hub
	// alone, or the aggregate's leader in a cluster.
	Writer bool `json:"writer,omitempty"`
	// SourceWrites counts the writes of the aggregate's sources this hub
	// made since it started (each writes the shards, and the aggregate,
	// whose lists changed; a re-sourcing is two), and
	// SourceWriteSeconds sums the time they took.
	SourceWrites       uint64  `json:"sourceWrites"`
	SourceWriteSeconds float64 `json:"sourceWriteSeconds"`
}
