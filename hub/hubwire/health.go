package hubwire

import "time"

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
	// Shards is each shard of the aggregate as this hub's server knows
	// it, by shard number.
	Shards []ShardHealth `json:"shards,omitempty"`
	// CatalogsMade counts the teams' catalog buckets this hub created
	// since it started (in a cluster, the writer creates them).
	CatalogsMade uint64 `json:"catalogsMade"`
	// Catalogs lists the teams whose catalog this hub has not made (or,
	// not the writer, not found) yet after an attempt failed; it tries
	// again until it succeeds. Empty when every team's catalog is there
	// or on its way.
	Catalogs []CatalogHealth `json:"catalogs,omitempty"`
}

// CatalogHealth is a team's catalog not made yet, in Health.
type CatalogHealth struct {
	Team string `json:"team"`
	// Error is the last attempt's; Attempts counts the failed ones, the
	// first at Since.
	Error    string    `json:"error"`
	Attempts int       `json:"attempts"`
	Since    time.Time `json:"since"`
}

// ShardHealth is one shard of the aggregate in Health.
type ShardHealth struct {
	Shard  int    `json:"shard"`
	Stream string `json:"stream"`
	// Leader is the server leading the shard, which sources its nodes
	// ("" while none is elected, or a hub alone).
	Leader string `json:"leader,omitempty"`
	// Current counts, at the shard's leader, the shard's replicas
	// current with it, itself included; 0 at the other hubs (only the
	// leader follows them) and at a hub alone.
	Current int `json:"current"`
	// Messages is what this hub's replica of the shard holds.
	Messages uint64 `json:"messages"`
}
