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
)

// String returns "always" or "interval".
func (m SyncMode) String() string {
	switch m {
	case SyncAlways:
		return "always"
	case SyncInterval:
		return "interval"
	default:
		return fmt.Sprintf("SyncMode(%d)", int(m))
	}
}
