package foldtest

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// Case is the events of one fold case, with their sequences and stored
// bytes as a log would deliver them.
type Case struct {
	Name   string
	Events []events.Event
}

// line is one event of a fold case (see projections/fold_test.go).
type line struct {
	Type    events.Type     `json:"type"`
	Session *string         `json:"session,omitempty"`
	Code    string          `json:"code,omitempty"`
	Data    json.RawMessage `json:"data"`
}

// Cases reads the events of every fold case in dir (*.txtar, section
// "events"). A tool event is of session s1 unless its line names one; a
// catalog.publish without a hash gets its body's.
func Cases(tb testing.TB, dir string) []Case {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no fold cases in %s: %v", dir, err)
	}
	var out []Case
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		c := Case{Name: strings.TrimSuffix(filepath.Base(file), ".txtar")}
		for _, f := range ar.Files {
			if f.Name == "events" {
				c.Events = caseEvents(tb, file, string(f.Data))
			}
		}
		out = append(out, c)
	}
	return out
}

func caseEvents(tb testing.TB, file, text string) []events.Event {
	tb.Helper()
	var evs []events.Event
	for n, s := range strings.Split(text, "\n") {
		if s = strings.TrimSpace(s); s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		var l line
		if err := json.Unmarshal([]byte(s), &l); err != nil {
			tb.Fatalf("%s, events line %d: %v", file, n+1, err)
		}
		ev, err := events.New("ws-foldtest", l.Type, publishHash(tb, l))
		if err != nil {
			tb.Fatalf("%s, events line %d: %v", file, n+1, err)
		}
		ev.Time = events.FormatTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(len(evs)) * time.Second))
		if l.Type.IsTool() {
			ev.Tool, ev.SessionID = "tool", "s1"
		}
		if l.Session != nil {
			ev.SessionID = *l.Session
		}
		if l.Code != "" {
			ev.Outcome, ev.ErrorCode = events.OutcomeError, l.Code
		}
		if ev.Raw, err = events.Encode(ev); err != nil {
			tb.Fatalf("%s, events line %d: %v", file, n+1, err)
		}
		ev.Seq = uint64(len(evs) + 1)
		evs = append(evs, ev)
	}
	return evs
}

// publishHash returns the payload of l, with the hash of a
// catalog.publish filled in from its body.
func publishHash(tb testing.TB, l line) any {
	if l.Type != events.TypeCatalogPublish {
		return l.Data
	}
	var p events.PublishData
	if err := json.Unmarshal(l.Data, &p); err != nil {
		tb.Fatal(err)
	}
	if p.Hash == "" {
		p.Hash = content.Hash([]byte(p.Body))
	}
	return p
}
