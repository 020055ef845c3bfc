package ui_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/browser"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/projections/projectionstest"
	"github.com/clumsies/clumsies/views/dash"
	"github.com/clumsies/clumsies/views/live"
	"github.com/clumsies/clumsies/views/ui"
)

const workspaceID = "ws-ui-test"

// backend is a workspace's read side in memory: a MemoryLog, a real
// pebble store on vfs.NewMem() following it, and the API over both, as
// the owner answers it (node.Handle.Dash).
type backend struct {
	log   *events.MemoryLog
	store *projections.Store
}

func newBackend(tb testing.TB) *backend {
	tb.Helper()
	log := events.NewMemoryLog()
	store := projectionstest.Following(tb, log)
	return &backend{log: log, store: store}
}

// Dash implements ui.Backend.
func (b *backend) Dash(ctx context.Context, req dash.Request) (dash.Reply, error) {
	last, err := b.log.LastSeq(ctx)
	if err != nil {
		return dash.Reply{}, err
	}
	return dash.Answer(ctx, b.store, b, dash.Ledger{WorkspaceID: workspaceID, LastSeq: last, Applied: b.store.Checkpoint()}, req)
}

var errFound = errors.New("found")

// Get implements dash.Events.
func (b *backend) Get(ctx context.Context, seq uint64) (events.Event, error) {
	var got events.Event
	err := b.log.Replay(ctx, seq, func(ev events.Event) error {
		got = ev
		return errFound
	})
	if !errors.Is(err, errFound) {
		return got, errors.Join(err, projections.ErrNotFound)
	}
	return got, nil
}

// append stores an event of type t with payload p at time at and waits
// until the read models have it.
func (b *backend) append(tb testing.TB, t events.Type, p any, at time.Time) {
	tb.Helper()
	b.appendAs(tb, "s-ui-test", t, p, at)
}

// appendAs is append in session.
func (b *backend) appendAs(tb testing.TB, session string, t events.Type, p any, at time.Time) {
	tb.Helper()
	ev, err := events.New(workspaceID, t, p)
	if err != nil {
		tb.Fatal(err)
	}
	ev.Time = events.FormatTime(at)
	ev.SessionID = session
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	seq, err := b.log.Append(ctx, ev)
	if err != nil {
		tb.Fatal(err)
	}
	if err := b.store.WaitFor(ctx, seq); err != nil {
		tb.Fatal(err)
	}
}

// publish publishes a rule at path with body and returns its id.
func (b *backend) publish(tb testing.TB, id, path, body string) {
	tb.Helper()
	b.append(tb, events.TypeCatalogPublish, events.PublishData{
		ID: id, Kind: string(content.KindRule), Path: path, Name: content.NameOf(path),
		Group: content.GroupOf(path), Hash: content.Hash([]byte(body)), Body: body,
	}, time.Now())
}

// serve serves the dashboard of b on a loopback server.
func (b *backend) serve(tb testing.TB) string {
	tb.Helper()
	ts := httptest.NewServer(ui.Handler(b, nil))
	tb.Cleanup(ts.Close)
	return ts.URL
}

// serveLive serves the dashboard of b with the ledger's live stream at
// /events (package live's handler on b's log), as serve --http does.
func (b *backend) serveLive(tb testing.TB) string {
	tb.Helper()
	mux := http.NewServeMux()
	mux.Handle("GET /events", live.Handler(b.log, live.Options{}))
	mux.Handle("/", ui.Handler(b, nil))
	ts := httptest.NewServer(mux)
	tb.Cleanup(ts.Close)
	return ts.URL
}

// page drives one tab of a real headless Chromium.
type page struct {
	tb   testing.TB
	ctx  context.Context
	b    *browser.Browser
	base string
}

func newPage(tb testing.TB, base string) *page {
	tb.Helper()
	b, tab := browser.ForTest(tb)
	return &page{tb: tb, ctx: tab, b: b, base: base}
}

// open loads path and waits until the script has drawn the page named
// name, with no console error.
func (p *page) open(path, name string) {
	p.tb.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Navigate(p.base+path)); err != nil {
		p.tb.Fatalf("open %s: %v", path, err)
	}
	p.wait(`document.getElementById("app").dataset.page === ` + strconv.Quote(name) + ` && document.getElementById("app").dataset.loaded`)
	if errs := p.b.Errors(); len(errs) > 0 {
		p.tb.Fatalf("page %s: console errors: %q", name, errs)
	}
}

// wait polls a JavaScript condition until it holds, for at most a minute.
func (p *page) wait(cond string) {
	p.tb.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool]("!!("+cond+")", chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(time.Minute))); err != nil {
		p.tb.Fatalf("waiting for %s: %v (console: %q)", cond, err, p.b.Errors())
	}
}

// eval evaluates a JavaScript expression into a T.
func eval[T any](p *page, expr string) T {
	p.tb.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.tb.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// getJSON decodes the answer to GET url into v.
func getJSON(tb testing.TB, url string, v any) {
	tb.Helper()
	resp, err := http.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		tb.Fatalf("GET %s: %v", url, err)
	}
}
