package hub

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// A team's catalog bucket is derived from the hub's ledger: a push or an
// accept appends its catalog events (the one write, which holds the whole
// change) and the ledger's follower writes each into the bucket, at
// most once. Every entry it writes carries the ledger sequence of its
// event in ledgerSeqHeader, so that the follower, started again from its
// checkpoint (after a hub stopped between the two writes), or another hub
// of a cluster deriving the same event, skips what an entry already
// holds.
const ledgerSeqHeader = "Clumsies-Hub-Ledger-Seq"

// HoldCatalogEnv, when set in a hub's environment, makes the ledger's
// follower stop when it is about to write a catalog entry, until the hub
// stops:
// the tests kill a hub between the ledger's write and the bucket's with it.
const HoldCatalogEnv = "CLUMSIES_TEST_HUB_HOLD_CATALOG"

// deriveCatalog is the reactor of the hub's ledger that writes the team
// catalogs' buckets: it writes the change of every catalog event of items
// that holds the whole change into its team's bucket, in order. The
// ledger's runner (followLedger) runs it on each batch before the batch
// is committed, so its checkpoint is the read side's: a hub resumes after
// the last event it derived. It is idempotent (deriveEntry), so a batch
// derived again after a failure writes nothing twice.
func (h *Hub) deriveCatalog(ctx context.Context, items []*ledgerItem) error {
	for _, it := range items {
		if it.change == nil || !it.change.Whole {
			continue
		}
		if err := h.deriveEntry(ctx, it.ev.Team, it.ev.Seq, it.ev.Type, *it.change); err != nil {
			return err
		}
	}
	return nil
}

// deriveEntry writes the catalog change d, the event at seq of the hub's
// ledger, into team's catalog bucket, unless the entry holds it or a later
// change already. The write is a compare-and-set on the entry: a hub of
// the cluster that wrote it meanwhile makes it read again.
func (h *Hub) deriveEntry(ctx context.Context, team string, seq uint64, typ events.Type, d events.HubCatalogData) error {
	st, err := h.catalogStream(ctx, team)
	if err != nil {
		return err
	}
	subject := entrySubject(team, d.ID)
	msg := nats.NewMsg(subject)
	msg.Header.Set(ledgerSeqHeader, strconv.FormatUint(seq, 10))
	if typ == events.TypeHubCatalogRemove {
		msg.Header.Set("KV-Operation", "DEL")
	} else {
		msg.Data = encodeCatalogEntry(hubwire.CatalogObject{ID: d.ID, Kind: content.Kind(d.Kind), Path: d.Path,
			Name: content.NameOf(d.Path), Group: content.GroupOf(d.Path), Hash: d.Hash, Description: d.Description,
			Body: d.Body, AcceptedReview: d.AcceptedReview})
	}
	return retryUnanswered(ctx, func(ctx context.Context) error {
		for {
			var base uint64
			last, err := st.GetLastMsgForSubject(ctx, subject)
			switch {
			case errors.Is(err, jetstream.ErrMsgNotFound):
			case err != nil:
				return fmt.Errorf("read the catalog's entry of %s: %w", d.Path, err)
			default:
				if from, _ := strconv.ParseUint(last.Header.Get(ledgerSeqHeader), 10, 64); from >= seq {
					return nil
				}
				base = last.Sequence
			}
			if os.Getenv(HoldCatalogEnv) != "" {
				h.logger.Warn("holding the catalog's entry back (" + HoldCatalogEnv + ")")
				<-ctx.Done()
				return ctx.Err()
			}
			_, err = h.js.PublishMsg(ctx, msg, jetstream.WithExpectLastSequencePerSubject(base))
			if wrongLastSequence(err) {
				continue
			}
			if err != nil {
				return fmt.Errorf("write the catalog's entry of %s: %w", d.Path, err)
			}
			return nil
		}
	})
}

// entrySubject is the subject of object id's entry in team's bucket.
func entrySubject(team, id string) string { return "$KV." + hubwire.CatalogBucket(team) + "." + id }

// catalogStream returns the stream of team's catalog bucket, creating the
// bucket if it does not exist; once opened, a team's is kept, so that a
// replay of the ledger does not ask for it at every event.
func (h *Hub) catalogStream(ctx context.Context, team string) (jetstream.Stream, error) {
	if st, ok := h.catStreams.Load(team); ok {
		return st.(jetstream.Stream), nil
	}
	if _, err := h.catalogKV(ctx, team, true); err != nil {
		return nil, err
	}
	var st jetstream.Stream
	err := retryUnanswered(ctx, func(ctx context.Context) error {
		var err error
		st, err = h.js.Stream(ctx, hubwire.CatalogStream(team))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("open the catalog of team %s: %w", team, err)
	}
	h.catStreams.Store(team, st)
	return st, nil
}

// wrongLastSequence reports whether err is the server's answer that an
// expected last sequence did not hold.
func wrongLastSequence(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}

// catchUp waits until the ledger's follower has applied every event the
// ledger holds now: the catalogs then hold every change recorded.
func (h *Hub) catchUp(ctx context.Context) error {
	var last uint64
	err := retryUnanswered(ctx, func(ctx context.Context) error {
		var err error
		last, err = h.log.LastSeq(ctx)
		return err
	})
	if err != nil {
		return fmt.Errorf("read the hub's ledger: %w", err)
	}
	return h.applied(ctx, last)
}

// applied waits, within readyTimeout, until the ledger's follower has
// applied the event at seq and every one before it.
func (h *Hub) applied(ctx context.Context, seq uint64) error {
	wctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	if err := h.ledger.progress.WaitFor(wctx, seq); err != nil {
		return fmt.Errorf("wait for the hub's ledger to be applied up to %d: %w", seq, err)
	}
	return nil
}

// entryRevision returns the revision of the entry of object id in team's
// catalog: that of its newest write, a removal included.
func (h *Hub) entryRevision(ctx context.Context, team, id string) (uint64, error) {
	kv, err := h.catalogKV(ctx, team, true)
	if err != nil {
		return 0, err
	}
	var rev uint64
	err = retryUnanswered(ctx, func(ctx context.Context) error {
		return latestEntries(ctx, kv, id, func(e jetstream.KeyValueEntry) error {
			rev = e.Revision()
			return nil
		})
	})
	if err != nil {
		return 0, fmt.Errorf("read the revision of %s: %w", id, err)
	}
	return rev, nil
}
