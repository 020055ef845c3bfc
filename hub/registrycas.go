package hub

import (
	"errors"

	"github.com/nats-io/nats.go/jetstream"
)

// lostCAS reports whether err is a compare-and-set on the registry's
// bucket that lost: the entry changed (or was created) since it was
// read. The server says "wrong last sequence" with API error 10071, or,
// on a replicated bucket (a cluster's R3) when another set of the same
// key is in flight, with 10164. nats.go's ErrKeyExists matches 10071
// only; a lost Update is ErrKeyRevisionMismatch with either code, a lost
// Create ErrKeyExists with either. Every compare-and-set of the package
// asks this, so that a lost one reads the same on one hub and in a
// cluster.
func lostCAS(err error) bool {
	return errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyRevisionMismatch)
}
