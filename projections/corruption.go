package projections

import (
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// corruption records the first damaged file pebble found in a store.
type corruption struct {
	err  atomic.Pointer[error]
	done chan struct{} // closed when err is set
}

func newCorruption() *corruption { return &corruption{done: make(chan struct{})} }

// set records info (the first time) and logs it.
func (c *corruption) set(dir string, info pebble.DataCorruptionInfo, log *slog.Logger) {
	detail := "damaged"
	if info.Details != nil {
		// pebble's errors carry their stack traces after the first line.
		detail, _, _ = strings.Cut(info.Details.Error(), "\n")
	}
	err := fmt.Errorf("%w: %s: %s; the read models will be rebuilt from the ledger (or run `clumsies rebuild`)", ErrCorrupt, info.Path, detail)
	if c.err.CompareAndSwap(nil, &err) {
		log.Error("the read models are damaged", "dir", dir, "path", info.Path, "err", detail)
		close(c.done)
	}
}

// check returns the recorded corruption, nil if none.
func (c *corruption) check() error {
	if p := c.err.Load(); p != nil {
		return *p
	}
	return nil
}
