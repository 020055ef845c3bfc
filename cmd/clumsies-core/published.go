package main

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/clumsies/clumsies/events"
)

// publishReport tells the user of `serve`, on stderr, what each publish of
// the content tree did: the changes that reached the agents, or why the
// tree was not published, once per reason, and when it is good again.
type publishReport struct {
	w io.Writer

	mu      sync.Mutex
	lastErr string // the reason of the last failed publish, "" after a good one
}

// report implements node.Options.WatchContent; serve's own publish at
// start is reported the same way.
func (r *publishReport) report(published []events.Event, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		if msg := err.Error(); msg != r.lastErr {
			r.lastErr = msg
			fmt.Fprintf(r.w, "clumsies: content not published: %v; the agents keep the last published content until you fix it (saving the file publishes it, as does `clumsies publish`)\n", err)
		}
		return
	}
	if r.lastErr != "" && len(published) == 0 {
		fmt.Fprintln(r.w, "clumsies: the content tree is fine again; nothing new to publish")
	}
	r.lastErr = ""
	if len(published) == 0 {
		return
	}
	var what []string
	for _, ev := range published[:min(len(published), reportedChanges)] {
		p, _ := ev.Payload()
		switch d := p.(type) {
		case *events.PublishData:
			what = append(what, d.Path)
		case *events.RemoveData:
			what = append(what, "removed "+d.Path)
		}
	}
	if more := len(published) - reportedChanges; more > 0 {
		what = append(what, fmt.Sprintf("and %d more (`clumsies events` lists them)", more))
	}
	fmt.Fprintf(r.w, "clumsies: published %d content change(s): %s\n", len(published), strings.Join(what, ", "))
}

// reportedChanges bounds the changes a report names: the first publish of
// a large tree would otherwise write one line naming every file (a
// megabyte at 50,000 files, built in memory first).
const reportedChanges = 20
