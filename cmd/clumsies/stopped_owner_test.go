package main_test

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
)

// TestServe_StoppedOwnerAnswersTruly stops the owning `clumsies serve`
// (SIGSTOP: a debugger, swap, a stalled disk) for 5, 30 and 60 s while
// another serve process takes agentreport calls, one a second. Every
// answer must agree with the ledger afterwards: a success is stored once,
// unavailable is not stored, outcome_unknown (not retryable) is stored at
// most once and, once the owner resumes, exactly once under the event id
// it names. No call is stored twice.
func TestServe_StoppedOwnerAnswersTruly(t *testing.T) {
	for _, stop := range []time.Duration{5 * time.Second, 30 * time.Second, 60 * time.Second} {
		t.Run(stop.String(), func(t *testing.T) {
			t.Parallel()
			stoppedOwnerAnswers(t, stop)
		})
	}
}

// answer is what one call was told.
type answer struct {
	ok      bool
	code    string
	eventID string
}

func stoppedOwnerAnswers(t *testing.T, stop time.Duration) {
	dir := newWorkspace(t)
	c := cluster(t, dir, 2)
	owner, err := c.Owner()
	if err != nil {
		t.Fatal(err)
	}
	caller := c.Procs[0]
	if caller == owner {
		caller = c.Procs[1]
	}
	call(t, caller.Client, "agentreport", map[string]any{"summary": "before"})

	if err := owner.Cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	resume := time.AfterFunc(stop, func() { owner.Cmd.Process.Signal(syscall.SIGCONT) })
	defer resume.Stop()
	defer owner.Cmd.Process.Signal(syscall.SIGCONT)

	var mu sync.Mutex
	answers := map[string]answer{}
	var wg sync.WaitGroup
	calls := int(stop/time.Second) + 2
	for i := range calls {
		summary := fmt.Sprintf("call-%d", i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, isErr, err := caller.Client.Call(ctx, "agentreport", map[string]any{"summary": summary})
			if err != nil {
				t.Errorf("%s: %v", summary, err)
				return
			}
			a := answer{ok: !isErr}
			if isErr {
				a.code, _ = res["code"].(string)
				a.eventID, _ = res["eventId"].(string)
				if retry, _ := res["retryable"].(bool); a.code == string(events.CodeOutcomeUnknown) && retry {
					t.Errorf("%s: outcome_unknown says retryable: %v", summary, res)
				}
			}
			mu.Lock()
			answers[summary] = a
			mu.Unlock()
		}()
		time.Sleep(time.Second)
	}
	wg.Wait()

	// Settled in the background once the owner is back: wait until every
	// outcome_unknown event is stored, for a while.
	var stored map[string][]string // summary -> ids of its events
	deadline := time.Now().Add(time.Minute)
	for {
		stored = reports(t, dir)
		open := 0
		for s, a := range answers {
			if a.code == string(events.CodeOutcomeUnknown) && len(stored[s]) == 0 {
				open++
			}
		}
		if open == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	counts := map[string]int{}
	for s, a := range answers {
		ids := stored[s]
		switch {
		case len(ids) > 1:
			t.Errorf("%s is stored %d times", s, len(ids))
		case a.ok && len(ids) != 1:
			t.Errorf("%s was answered ok but is not stored", s)
		case a.code == string(events.CodeUnavailable) && len(ids) != 0:
			t.Errorf("%s was answered unavailable (retry) but is stored", s)
		case a.code == string(events.CodeOutcomeUnknown) && (len(ids) != 1 || ids[0] != a.eventID):
			t.Errorf("%s was answered outcome_unknown for event %s; stored: %v", s, a.eventID, ids)
		case !a.ok && a.code != string(events.CodeUnavailable) && a.code != string(events.CodeOutcomeUnknown):
			t.Errorf("%s was answered %q", s, a.code)
		}
		key := "ok"
		if !a.ok {
			key = a.code
		}
		counts[key]++
	}
	t.Logf("owner stopped for %s: %d calls answered %v", stop, len(answers), counts)
	if len(answers) != calls {
		t.Fatalf("%d of %d calls answered", len(answers), calls)
	}
}

// reports reads the ledger of dir with `clumsies events` and returns the
// ids of the agent reports by summary.
func reports(tb testing.TB, dir string) map[string][]string {
	tb.Helper()
	out := map[string][]string{}
	for _, ev := range eventLines(tb, dir, "--type", string(events.TypeAgentReport)) {
		data, _ := ev["data"].(map[string]any)
		s, _ := data["summary"].(string)
		id, _ := ev["id"].(string)
		out[s] = append(out[s], id)
	}
	return out
}
