package hub

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

// TestRetry_TriesAgainWhileNoLeader runs retry on calls that fail the
// ways JetStream answers during an election, then succeed: each is tried
// again until it succeeds; an error that says something else is returned
// at once.
func TestRetry_TriesAgainWhileNoLeader(t *testing.T) {
	noLeader := &jetstream.APIError{Code: 503, ErrorCode: jsNoLeader, Description: "JetStream system temporarily unavailable"}
	for _, tc := range []struct {
		name      string
		fail      error
		wantCalls int
		wantErr   bool
	}{
		{"a leader's read answered no leader", fmt.Errorf("the registry's leader: %w", noLeader), 3, false},
		{"an API call answered no leader", fmt.Errorf("put: %w", noLeader), 3, false},
		{"unanswered", context.DeadlineExceeded, 3, false},
		{"another API error", &jetstream.APIError{Code: 400, ErrorCode: jetstream.JSErrCodeBadRequest}, 1, true},
		{"another error", errors.New("bad"), 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			err := retry(context.Background(), func(context.Context) error {
				calls++
				if calls < 3 {
					return tc.fail
				}
				return nil
			})
			if calls != tc.wantCalls || (err != nil) != tc.wantErr {
				t.Fatalf("%d calls, err %v; want %d calls, an error: %v", calls, err, tc.wantCalls, tc.wantErr)
			}
		})
	}
}
