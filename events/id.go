package events

import (
	"crypto/rand"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"
)

var (
	idMu      sync.Mutex
	idEntropy = ulid.Monotonic(rand.Reader, 0)
)

// NewID returns a new ULID string. Ids from one process are strictly
// increasing, also within the same millisecond.
func NewID() string {
	idMu.Lock()
	defer idMu.Unlock()
	return ulid.MustNew(ulid.Timestamp(time.Now()), idEntropy).String()
}

// ValidID reports whether s is a well-formed ULID.
func ValidID(s string) bool {
	_, err := ulid.ParseStrict(s)
	return err == nil
}
