package hub

import (
	"encoding/json"
	"testing"
	"time"
)

// TestLocalCopy_CloseWaitsForTheWriteUnderWay: a write the timer started
// before close is finished when close returns (a hub's folder is not
// written after Close), and a change after close schedules nothing.
func TestLocalCopy_CloseWaitsForTheWriteUnderWay(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	writes := 0
	c := &localCopy{read: func() ([]byte, func(), error) {
		b, err := json.Marshal(map[string]int{"n": 1})
		return b, func() {}, err
	}}
	c.write = func([]byte) error {
		writes++
		if writes == 1 {
			close(started)
			<-release
		}
		return nil
	}
	c.changed()
	select {
	case <-started:
	case <-time.After(10 * copyDelay):
		t.Fatal("the scheduled write did not start")
	}
	closed := make(chan error, 1)
	go func() { closed <- c.close() }()
	select {
	case err := <-closed:
		t.Fatalf("close returned (%v) while a write was under way", err)
	case <-time.After(2 * copyDelay):
	}
	close(release)
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	c.changed()
	time.Sleep(2 * copyDelay)
	if writes != 1 {
		t.Fatalf("%d writes, want the one under way alone: a change after close schedules none", writes)
	}
}
