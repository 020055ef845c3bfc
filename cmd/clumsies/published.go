package main

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/clumsies/clumsies/node"
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
func (r *publishReport) report(published node.Published, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		if msg := err.Error(); msg != r.lastErr {
			r.lastErr = msg
			fmt.Fprintf(r.w, "clumsies: content not published: %v; the agents keep the last published content until you fix it (saving the file publishes it, as does `clumsies publish`)\n", err)
		}
		return
	}
	if r.lastErr != "" && published.Count == 0 {
		fmt.Fprintln(r.w, "clumsies: the content tree is fine again; nothing new to publish")
	}
	r.lastErr = ""
	if published.Count == 0 {
		return
	}
	// A report names the changes the publish describes (node.FirstChanges)
	// and counts the rest: the first publish of a large tree would
	// otherwise write one line naming every file (a megabyte at 50,000).
	var what []string
	for _, c := range published.First {
		if c.Removed {
			what = append(what, "removed "+c.Path)
		} else {
			what = append(what, c.Path)
		}
	}
	if more := published.Count - len(published.First); more > 0 {
		what = append(what, fmt.Sprintf("and %d more (`clumsies events` lists them)", more))
	}
	fmt.Fprintf(r.w, "clumsies: published %d content change(s): %s\n", published.Count, strings.Join(what, ", "))
}
