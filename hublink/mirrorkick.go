package hublink

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// How the mirror follows the leaf link.
const (
	linkPoll = 100 * time.Millisecond
	// kickAfter is how long a link must stay up before a stalled mirror
	// is kicked: a link that flaps is kicked once it holds.
	kickAfter = 200 * time.Millisecond
)

// FollowLink kicks the mirror when the leaf link comes back after it was
// down, and when it comes up first while the mirror never reached the hub:
// after a hub restart or a link that was down, the mirror would otherwise
// wait out its retry backoff (about 7 s or more). up reports whether the
// link is up now. It returns when ctx ends.
func (m *Mirror) FollowLink(ctx context.Context, up func() bool) {
	t := time.NewTicker(linkPoll)
	defer t.Stop()
	var since time.Time // when the link was first seen up; zero while down
	kicked, wasDown := false, false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if !up() {
			if !since.IsZero() || !kicked {
				wasDown = true
			}
			since, kicked = time.Time{}, false
			continue
		}
		if since.IsZero() {
			since = time.Now()
		}
		if kicked || time.Since(since) < kickAfter {
			continue
		}
		kicked = true
		kick := wasDown
		var err error
		if !kick {
			kick, err = m.stalled(ctx)
		}
		if err == nil && kick {
			m.logger.Info("kicking the team catalog's mirror: the link came up", "team", m.team)
			err = m.Kick(ctx)
		}
		if err != nil && ctx.Err() == nil {
			m.logger.Warn("kick the team catalog's mirror", "team", m.team, "err", err)
		}
	}
}

// stalled reports whether the mirror never heard from the hub.
func (m *Mirror) stalled(ctx context.Context) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st, err := m.bucket().Status(ctx)
	if err != nil {
		return false, fmt.Errorf("read the mirror's state: %w", err)
	}
	info := st.(*jetstream.KeyValueBucketStatus).StreamInfo()
	if info.Mirror == nil {
		return false, errors.New("the team catalog's bucket is no mirror")
	}
	return info.Mirror.Active < 0, nil
}

// Kick makes the mirror ask the hub for what it misses now rather than
// after its retry backoff: it creates the mirror again, which copies the
// hub's bucket from its start (a catalog is small; the copy keeps the
// hub's revisions). The view keeps serving what it holds meanwhile and
// goes on after the last revision it applied.
func (m *Mirror) Kick(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := m.js.DeleteKeyValue(ctx, m.cfg.Bucket); err != nil && !errors.Is(err, jetstream.ErrBucketNotFound) {
		return fmt.Errorf("kick the mirror: %w", err)
	}
	kv, err := m.js.CreateOrUpdateKeyValue(ctx, m.cfg)
	if err != nil {
		return fmt.Errorf("kick the mirror: %w", err)
	}
	m.mu.Lock()
	m.kv = kv
	m.mu.Unlock()
	select {
	case m.rewatch <- struct{}{}:
	default:
	}
	if m.onKick != nil {
		return m.onKick(ctx)
	}
	return nil
}

// OnKick sets what else a kick does (the workspace kicks the mirror of
// the hub's outcomes with it). Call it before FollowLink.
func (m *Mirror) OnKick(f func(context.Context) error) { m.onKick = f }
