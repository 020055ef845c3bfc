package hublink

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/nats-io/nkeys"

	"github.com/clumsies/clumsies/hub"
)

// statusTimeout bounds the status request.
const statusTimeout = 10 * time.Second

// Status is the state of this node's link as the hub sees it.
type Status struct {
	// Reachable reports whether the hub answered; the other fields are
	// the hub's answer and are zero when it did not.
	Reachable bool `json:"reachable"`
	// Error says why the hub did not answer.
	Error string `json:"error,omitempty"`
	// Linked reports whether the node's leaf link is up.
	Linked bool `json:"linked"`
	// Since is when the link came up (Linked) or went down; zero when the
	// hub has not seen it since it started.
	Since time.Time `json:"since,omitzero"`
	// HubSeq is the last sequence of this node's ledger the hub has.
	HubSeq uint64 `json:"hubSeq"`
	// Revoked reports that the hub revoked this node.
	Revoked bool `json:"revoked,omitempty"`
}

// ReadStatus asks the hub about this node, signing the request with the
// node's key. A hub that cannot be reached gives a Status with Reachable
// false, not an error; a damaged identity is an error.
func (id Identity) ReadStatus(ctx context.Context) (Status, error) {
	if id.Hub == "" {
		return Status{}, errors.New("the node identity names no hub API; join again")
	}
	kp, err := nkeys.FromSeed([]byte(id.Seed))
	if err != nil {
		return Status{}, fmt.Errorf("read the node key: %w", err)
	}
	ms := nowMillis()
	sig, err := kp.Sign(hub.NodeAuthMessage(id.NodeID, ms))
	if err != nil {
		return Status{}, fmt.Errorf("sign the status request: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, statusTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id.Hub+"/api/nodes/"+url.PathEscape(id.NodeID)+"/status", nil)
	if err != nil {
		return Status{}, err
	}
	req.Header.Set("Authorization", hub.NodeAuthScheme+strconv.FormatInt(ms, 10)+"."+base64.RawURLEncoding.EncodeToString(sig))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return Status{Error: err.Error()}, nil
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return Status{Error: err.Error()}, nil
	}
	if resp.StatusCode != http.StatusOK {
		var e hub.APIError
		if json.Unmarshal(b, &e) == nil && e.Error != "" {
			return Status{Error: e.Error}, nil
		}
		return Status{Error: resp.Status}, nil
	}
	var ns hub.NodeStatus
	if err := json.Unmarshal(b, &ns); err != nil {
		return Status{Error: "unreadable answer: " + err.Error()}, nil
	}
	return Status{Reachable: true, Linked: ns.Link.Up, Since: ns.Link.Since, HubSeq: ns.HubSeq, Revoked: !ns.Active()}, nil
}

func nowMillis() int64 { return time.Now().UnixMilli() }
