package main_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/proof/ledger"
)

// historyRule is the rule of historyWorkspace, with two constraints.
const (
	historyPath = "rules/history.md"
	historyBody = "# History\n\n## Steps\n\n1. Keep the change small.\n2. Say why.\n"
)

// historyEvent is an event of a history: a type and payload, its session
// and tool, days before today.
type historyEvent struct {
	daysAgo int
	session string
	tool    string
	typ     events.Type
	data    any
}

// historyWorkspace returns a workspace (not served) whose ledger holds
// the events hist gives for the rule's id at their days, after a publish of the rule
// historyPath (also written under .clumsies/, so that a serve finds it
// published) on the day of the oldest event, and the rule's id. The
// ledger is written as `clumsies export` would and stored with `clumsies
// import`: the events keep their times.
func historyWorkspace(tb testing.TB, history func(id string) []historyEvent) (string, string) {
	tb.Helper()
	dir := newWorkspace(tb)
	if err := os.WriteFile(filepath.Join(dir, ".clumsies", historyPath), []byte(historyBody), 0o644); err != nil {
		tb.Fatal(err)
	}
	ws := workspaceID(tb, dir)
	id := catalog.DerivedID(content.KindRule, historyPath)
	hist := history(id)
	oldest := 0
	for _, e := range hist {
		oldest = max(oldest, e.daysAgo)
	}
	today := time.Now().UTC().Truncate(24 * time.Hour).Add(12 * time.Hour)
	log := events.NewMemoryLog()
	ctx := context.Background()
	add := func(e historyEvent, i int) {
		ev, err := events.New(ws, e.typ, e.data)
		if err != nil {
			tb.Fatal(err)
		}
		ev.Time = events.FormatTime(today.AddDate(0, 0, -e.daysAgo).Add(time.Duration(i) * time.Second))
		ev.SessionID, ev.Tool = e.session, e.tool
		if _, err := log.Append(ctx, ev); err != nil {
			tb.Fatal(err)
		}
	}
	add(historyEvent{daysAgo: oldest, typ: events.TypeCatalogPublish, data: events.PublishData{
		ID: id, Kind: string(content.KindRule), Path: historyPath, Name: content.NameOf(historyPath),
		Group: content.GroupOf(historyPath), Hash: content.Hash([]byte(historyBody)), Body: historyBody,
	}}, 0)
	for i, e := range hist {
		add(e, i+1)
	}
	file := filepath.Join(tb.TempDir(), "history.jsonl.gz")
	f, err := os.Create(file)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := ledger.Export(ctx, log, ws, 1, 0, f, nil); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	mustRun(tb, dir, "import", file)
	return dir, id
}
