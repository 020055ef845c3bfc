package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// readInvite reads the invite entry key with its revision. The bucket's
// reads are direct gets, served by the nearest replica of its stream,
// which in a cluster may not have stored an invite written a moment
// before at another hub (or at this one: a write is acknowledged once
// two of the three replicas hold it). An entry the replica does not hold
// is read again from the stream's leader, which holds every acknowledged
// write, before the token is called unknown: a join right after its
// invite is not refused.
func (r *registry) readInvite(ctx context.Context, key string) ([]byte, uint64, error) {
	e, err := r.kv.Get(ctx, key)
	if err == nil {
		return e.Value(), e.Revision(), nil
	}
	if !errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, 0, fmt.Errorf("read the invite: %w", err)
	}
	var value []byte
	var rev uint64
	err = retry(ctx, func(ctx context.Context) error {
		var err error
		value, rev, err = r.leaderGet(ctx, key)
		return err
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, 0, ErrBadInvite
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read the invite from the registry's leader: %w", err)
	}
	return value, rev, nil
}

// msgGetAnswer is the JetStream API's answer to a message get.
type msgGetAnswer struct {
	Error   *jetstream.APIError `json:"error"`
	Message *struct {
		Sequence uint64 `json:"seq"`
		Header   []byte `json:"hdrs"`
		Data     []byte `json:"data"`
	} `json:"message"`
}

// leaderGet reads the last value of key from the registry stream's
// leader: the JetStream API's message get, which only the leader
// answers, where the bucket's own Get is a direct get any replica
// answers. A key never written, deleted or purged is ErrKeyNotFound.
func (r *registry) leaderGet(ctx context.Context, key string) ([]byte, uint64, error) {
	req, _ := json.Marshal(map[string]string{"last_by_subj": "$KV." + hubwire.RegistryBucket + "." + key})
	m, err := r.js.Conn().RequestWithContext(ctx, "$JS.API.STREAM.MSG.GET.KV_"+hubwire.RegistryBucket, req)
	if err != nil {
		return nil, 0, err
	}
	var a msgGetAnswer
	if err := json.Unmarshal(m.Data, &a); err != nil {
		return nil, 0, fmt.Errorf("read the answer of the registry's leader: %w", err)
	}
	if a.Error != nil {
		if a.Error.ErrorCode == jetstream.JSErrCodeMessageNotFound {
			return nil, 0, jetstream.ErrKeyNotFound
		}
		// The API's own error, so that retry knows "no leader for a
		// moment" (unanswered) as it does from the client's calls.
		return nil, 0, fmt.Errorf("the registry's leader: %w", a.Error)
	}
	if a.Message == nil {
		return nil, 0, errors.New("the registry's leader answered no message")
	}
	if len(a.Message.Header) > 0 {
		h, err := nats.DecodeHeadersMsg(a.Message.Header)
		if err != nil {
			return nil, 0, fmt.Errorf("read the answer of the registry's leader: %w", err)
		}
		if op := h.Get("KV-Operation"); op == "DEL" || op == "PURGE" {
			return nil, 0, jetstream.ErrKeyNotFound
		}
	}
	return a.Message.Data, a.Message.Sequence, nil
}

// useInvite marks invite in, read at revision rev, used by node id with
// key: a compare-and-set on its entry key, so that of two joins with one
// token (at two hubs of a cluster, say) one wins. The one that loses gets
// ErrBadInvite, as a join with a used token does, on one hub and in a
// cluster alike (lostCAS). A set left unanswered (the registry's leader
// changing) is tried again; one that then reads as lost is read from the
// leader, and is this join's if the entry names its node and key.
func (r *registry) useInvite(ctx context.Context, key string, in invite, rev uint64, id, nodeKey string) error {
	in.Used, in.UsedBy, in.UsedKey = true, id, nodeKey
	b, _ := json.Marshal(in)
	tried := 0
	err := retry(ctx, func(ctx context.Context) error {
		tried++
		_, err := r.kv.Update(ctx, key, b, rev)
		return err
	})
	if err != nil && lostCAS(err) && tried > 1 {
		if value, _, gerr := r.leaderGet(ctx, key); gerr == nil {
			var now invite
			if json.Unmarshal(value, &now) == nil && now.UsedBy == id && now.UsedKey == nodeKey {
				err = nil
			}
		}
	}
	if err != nil {
		if lostCAS(err) {
			return ErrBadInvite
		}
		return fmt.Errorf("use the invite: %w", err)
	}
	return r.apply(key, b)
}
