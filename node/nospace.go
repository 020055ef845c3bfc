package node

import "fmt"

// minFree is the free space below which the state folder's disk counts as
// full: JetStream cannot store an event and the owner cannot start.
const minFree = 1 << 20

// noSpaceError means the disk of the state folder is full. It wraps
// ErrUnavailable, and its Reason is shown to the agent.
type noSpaceError struct {
	dir  string
	free uint64
}

func (e noSpaceError) Error() string {
	return fmt.Sprintf("node: the disk of %s is full (%d bytes free)", e.dir, e.free)
}
func (noSpaceError) Unwrap() error { return ErrUnavailable }
func (e noSpaceError) Reason() string {
	return fmt.Sprintf("the disk of %s is full; calls are stored again once space is freed, without a restart.", e.dir)
}

// noSpace returns a noSpaceError when the disk of the state folder is
// full, and nil otherwise (or when it cannot tell). It is asked only on
// the way to an error, never on a call that succeeds.
func (h *Handle) noSpace() error {
	dir := h.ws.StateDir()
	free, ok := freeSpace(dir)
	if !ok || free >= minFree {
		return nil
	}
	return noSpaceError{dir: dir, free: free}
}
