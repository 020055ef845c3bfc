package embeddednats

import "fmt"

// SyncMode says when JetStream flushes its store to stable storage.
type SyncMode int

const (
	// SyncAlways makes JetStream fsync every message before it acknowledges
	// it, so an acknowledged message survives an OS crash or power loss. It
	// is the zero value and the default.
	SyncAlways SyncMode = iota
	// SyncInterval leaves flushing to JetStream's periodic fsync (every two
	// minutes by default). Acknowledged messages survive a process crash but
	// an OS crash or power loss can lose the most recent ones.
	SyncInterval
	// SyncGroup has JetStream write every message to its file before it
	// acknowledges it, without an fsync of its own; the caller makes
	// acknowledged messages durable with a StreamSync before it relies on
	// them. Appends that are acknowledged while one fsync runs share the
	// next one (group commit): the durability of SyncAlways at a fraction
	// of its fsyncs when several writers append at once.
	SyncGroup
)

// String returns "always", "interval" or "group".
func (m SyncMode) String() string {
	switch m {
	case SyncAlways:
		return "always"
	case SyncInterval:
		return "interval"
	case SyncGroup:
		return "group"
	default:
		return fmt.Sprintf("SyncMode(%d)", int(m))
	}
}
