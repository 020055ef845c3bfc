package hub_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// logStreams logs, as th reads them, the aggregate and each of its
// shards: messages, leader and each source's lag, last activity and
// error, for a test that fails on what a hub counts.
func logStreams(t *testing.T, th *testHub) {
	t.Helper()
	js := hubJetStream(t, th)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	for _, name := range append([]string{hubwire.AggregateStream}, shardStreams(th)...) {
		s, err := js.Stream(ctx, name)
		if err != nil {
			t.Logf("%s reads %s: %v", th.cfg.Name, name, err)
			continue
		}
		info := s.CachedInfo()
		var b strings.Builder
		for _, src := range info.Sources {
			from := src.Name
			if src.External != nil {
				from = src.External.APIPrefix
			}
			fmt.Fprintf(&b, " [%s lag %d active %s", from, src.Lag, src.Active)
			if src.Error != nil {
				fmt.Fprintf(&b, " error %v", src.Error)
			}
			b.WriteString("]")
		}
		leader := ""
		if info.Cluster != nil {
			leader = info.Cluster.Leader
		}
		t.Logf("%s reads %s: %d messages, leader %q, sources%s", th.cfg.Name, name, info.State.Msgs, leader, b.String())
	}
}

// shardStreams names the shards th's health lists.
func shardStreams(th *testHub) []string {
	var out []string
	for _, sh := range th.h.Health(context.Background()).Shards {
		out = append(out, sh.Stream)
	}
	return out
}
