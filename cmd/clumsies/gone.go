package main

import (
	"fmt"

	"github.com/clumsies/clumsies/node"
)

// stopWhenGone ends the running command when the workspace h opened is
// gone (.clumsies removed, or made again by `clumsies init` with a new
// id): a serve, ui or events --follow left running would otherwise take
// the state folder again under the old id and lock the new workspace
// out. It returns when h is closed.
func (m *Main) stopWhenGone(h *node.Handle) {
	<-h.Done()
	if err := h.Err(); err != nil && m.stop != nil {
		m.stop(fmt.Errorf("%w; this process stops (start it again for the workspace there now)", err))
	}
}
