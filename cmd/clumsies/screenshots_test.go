package main_test

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/clumsies/clumsies/internal/history"
	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/views/dash"
)

// screenshotDays is the history `make screenshots` shoots; the test
// without it shoots a tiny one, so that the target cannot rot.
const screenshotDays = 45

// TestScreenshots shoots the dashboards as `make screenshots` does: a
// workspace with a generated history, imported (CLUMSIES_SCREENSHOTS=DIR:
// 45 days into DIR; without it 3 days into a folder of the test), whose
// every page is shot at laptop and phone width, the overview in the dark
// scheme as well; and the hub that workspace sources to, with a second
// member and a draft in the review queue, as a reviewer sees it.
func TestScreenshots(t *testing.T) {
	out, days := os.Getenv("CLUMSIES_SCREENSHOTS"), screenshotDays
	if out == "" {
		out, days = t.TempDir(), 3
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	hp := newHub(t)
	dir := newWorkspace(t)
	if err := history.WriteTree(filepath.Join(dir, ".clumsies")); err != nil {
		t.Fatal(err)
	}
	hp.join(t, dir, "red", "ann")
	var export bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := history.Write(ctx, filepath.Join(dir, ".clumsies"), workspaceID(t, dir), history.Options{Days: days, Seed: 25}, &export); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "history.jsonl.gz")
	if err := os.WriteFile(file, export.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, "import", file)
	other := newWorkspace(t)
	hp.join(t, other, "red", "bob")
	agentSession(t, other, "bob-1", 2)

	// A draft of a team rule, in the hub's review queue.
	id := pushTree(t, hp, writeTree(t, map[string]string{"rules/team/STYLE.md": teamRule}), "red").Published[0].ID
	_, acl := serve(t, dir)
	setup(t, acl, "ann-review")
	waitFor(t, "the team rule in the workspace", func() bool { return discItem(t, acl, "team/STYLE.md") != nil })
	stage(t, acl, id, teamRule+"- and log them once, where they are handled\n")
	waitFor(t, "the draft in the hub's review queue", func() bool { return len(reviews(t, hp)) == 1 })
	reviewer := strings.TrimSpace(mustRun(t, hp.dir, "hub", "token", "--name", "di", "--team", "red", "--reviewer"))

	base := serveHTTP(t, dir, "--http", "127.0.0.1:0")
	tok := testbin.HTTPToken(t, dir)
	var ov dash.Overview
	getJSON(t, base, "/api/overview", tok, &ov)
	// The session shot is the history's newest, with hooks, loads and refs.
	sid := ""
	for _, s := range ov.Recent {
		if sid == "" && strings.HasPrefix(s.ID, "s-") {
			sid = s.ID
		}
	}
	if len(ov.MostApplied) == 0 || sid == "" {
		t.Fatalf("the history has no applied rule or session: %+v", ov)
	}
	p := browse(t, base)
	p.open("/?token="+tok, "overview")
	shots := []struct{ name, path, page string }{
		{"overview", "/", "overview"},
		{"rules", "/rules", "rules"},
		{"rule", "/rules/" + url.PathEscape(ov.MostApplied[0].ID), "rule"},
		{"session", "/sessions/" + url.PathEscape(sid), "session"},
		{"drafts", "/drafts", "drafts"},
		{"live", "/live", "live"},
	}
	var wrote []string
	shoot := func(p *page, name, path, page string, width, height int64, dark bool) {
		t.Helper()
		scheme := "light"
		if dark {
			scheme = "dark"
			name += "-dark"
		}
		media := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
			return err
		})
		if err := chromedp.Do(p.ctx, media, chromedp.EmulateViewport(width, height)); err != nil {
			t.Fatal(err)
		}
		p.open(path, page)
		if page == "live" {
			p.wait(`document.querySelectorAll("[data-table=live] tbody tr[data-seq]").length > 0`)
		}
		if page == "team" {
			p.wait(`document.querySelector("[data-reviews]").dataset.ready !== undefined`)
		}
		p.shoot(out, name+".png", width, height)
		wrote = append(wrote, name+".png")
	}
	for _, size := range []struct {
		name          string
		width, height int64
	}{{"laptop", 1366, 768}, {"phone", 390, 844}} {
		for _, s := range shots {
			shoot(p, s.name+"-"+size.name, s.path, s.page, size.width, size.height, false)
		}
		shoot(p, "overview-"+size.name, "/", "overview", size.width, size.height, true)
	}

	// The hub, as its reviewer sees it.
	hub := &page{tb: t, ctx: p.ctx, b: p.b, base: hp.api}
	hub.open("/?token="+reviewer, "team")
	hub.wait(`document.querySelectorAll("[data-review]").length === 1`)
	shoot(hub, "hub-laptop", "/", "team", 1366, 768, false)
	shoot(hub, "hub-laptop", "/", "team", 1366, 768, true)
	shoot(hub, "hub-phone", "/", "team", 390, 844, false)
	// The review queue, with the draft's diff and the reviewer's actions.
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1366, 768)); err != nil {
		t.Fatal(err)
	}
	hub.open("/", "team")
	hub.wait(`document.querySelector("[data-reviews]").dataset.ready !== undefined`)
	hub.wait(`(document.querySelector("[data-review]").scrollIntoView({block: "center"}), true)`)
	hub.shoot(out, "hub-review-laptop.png", 1366, 768)
	wrote = append(wrote, "hub-review-laptop.png")

	for _, name := range wrote {
		png, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
			t.Errorf("%s: not a PNG (%v)", name, err)
		}
	}
	t.Logf("%d screenshots of a %d-day history in %s", len(wrote), days, out)
}
