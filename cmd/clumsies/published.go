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
// tree was not published, once per reason, and when it is good again; and
// each file held back, once until it is fixed.
type publishReport struct {
	w io.Writer

	mu      sync.Mutex
	lastErr string            // the reason of the last failed publish, "" after a good one
	held    map[string]string // the reason of each file held back and reported
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
	r.reportHeld(published.Held)
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

// reportHeld says which files the publish held back, each once until it
// is published (or gone) and then only if it is held back again.
func (r *publishReport) reportHeld(held []node.HeldFile) {
	now := make(map[string]string, len(held))
	for _, h := range held {
		now[h.Path] = h.Reason
		if r.held[h.Path] != h.Reason {
			fmt.Fprintln(r.w, heldLine(h, "saving the file publishes it, as does `clumsies publish`"))
		}
	}
	r.held = now
}

// heldLine is the line on stderr that names a file a publish held back;
// then says how a fixed file gets published.
func heldLine(h node.HeldFile, then string) string {
	return fmt.Sprintf("clumsies: not published: %s: %s; the agents keep its last published content until you fix it (%s)", h.Path, h.Reason, then)
}
