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
}
