package node

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// OwnerInfo says which process owns the workspace: enough to name it to a
// user who must restart it.
type OwnerInfo struct {
	PID int `json:"pid"`
	// Command is the owner's program and command, such as "clumsies ui".
	Command string    `json:"command"`
	Started time.Time `json:"started"`
	// HubNode is the node id the owner links to a hub as; "" when it
	// started without a hub (before the clone joined one).
	HubNode string `json:"hubNode,omitempty"`
}

var mOwnerInfo = register("ownerinfo", (*owner).info)

func (o *owner) info(context.Context, struct{}) (OwnerInfo, error) {
	return OwnerInfo{PID: os.Getpid(), Command: processCommand(), Started: o.n.started, HubNode: o.n.hubNode}, nil
}

// OwnerInfo says which process owns the workspace (this one, when it is
// the owner). An owner of an earlier version does not know the request
// and answers an error.
func (h *Handle) OwnerInfo(ctx context.Context) (OwnerInfo, error) {
	return mOwnerInfo.call(ctx, h, struct{}{})
}

// processCommand names this process by its program and its command (the
// first argument when it is no flag), never its flags, which may hold a
// token.
func processCommand() string {
	if len(os.Args) == 0 {
		return ""
	}
	cmd := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	if len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-") {
		cmd += " " + os.Args[1]
	}
	return cmd
}
