package hublink

import (
	"context"
	"sync"
)

// Run keeps the team's side in step until ctx ends: the kick of the
// mirrors when the leaf link comes up, the submission of the team's
// drafts left unsubmitted, and the recording of the hub's review
// outcomes. It closes the mirror when done.
func (l *Link) Run(ctx context.Context) {
	if l.team == nil {
		return
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		l.team.FollowLink(ctx, l.host.Linked)
	}()
	l.retrySubmitPending(ctx)
	l.followOutcomes(ctx)
	wg.Wait()
	if err := l.team.Close(); err != nil {
		l.host.Logger.Warn("close the team catalog's mirror", "err", err)
	}
}
