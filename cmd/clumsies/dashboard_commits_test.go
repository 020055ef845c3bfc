package main_test

import (
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/clumsies/clumsies/internal/browser"
	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/proof/attest"
	"github.com/clumsies/clumsies/proof/commitcheck"
)

// apiStatus GETs base+path and returns the answer's status and body.
func apiStatus(tb testing.TB, base, path, token string) (int, string) {
	tb.Helper()
	resp := get(tb, base+path, token)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestDashboard_CommitsAPI: on the work of attestWork, /api/commits/BASE..HEAD
// of clumsies ui answers what clumsies check --json prints (same
// verdict, rows and problems); /api/commits/REV judges one commit against
// its parent; /api/commits lists the branch's commits with their files
// counted by who wrote them, and keeps those of a session or a rule when
// asked; a revision git does not know is a 404 that says so.
func TestDashboard_CommitsAPI(t *testing.T) {
	dir, api := attestWork(t)
	want := checkJSON(t, dir, 1, "main..feature")
	base, _ := startUI(t, dir, nil, "--addr", "127.0.0.1:0")
	tok := testbin.HTTPToken(t, dir)

	var got attest.Result
	getJSON(t, base, "/api/commits/main..feature", tok, &got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("/api/commits/main..feature:\n got %+v\nwant %+v (check --json)", got, want)
	}
	var one attest.Result
	getJSON(t, base, "/api/commits/feature~1", tok, &one)
	by := map[string]string{}
	for _, f := range one.Files {
		by[f.Path] = f.By
	}
	if len(by) != 3 || by["api/handler.go"] != attest.ByAgent || by["api/client.go"] != attest.ByMixed || by["README.md"] != attest.ByHuman ||
		!one.OK || one.Base != gitIn(t, dir, "rev-parse", "main") {
		t.Errorf("/api/commits/feature~1: %+v, want handler.go agent, client.go mixed, README.md human against main, passing", one)
	}

	var all commitcheck.Commits
	getJSON(t, base, "/api/commits", tok, &all)
	head, first := gitIn(t, dir, "rev-parse", "feature"), gitIn(t, dir, "rev-parse", "feature~1")
	if all.Branch != "feature" || all.Looked != 4 || all.More || len(all.Items) != 4 || all.Items[0].ID != head || all.Items[1].ID != first ||
		all.Items[0].Agent != 1 || all.Items[1].Agent != 1 || all.Items[1].Mixed != 1 || all.Items[1].Human != 1 || all.Items[0].Subject != "retry, amended" {
		t.Errorf("/api/commits: %+v, want the 4 commits of feature, newest first, with their files counted", all)
	}
	var two commitcheck.Commits
	getJSON(t, base, "/api/commits?n=2", tok, &two)
	if two.Looked != 2 || !two.More || len(two.Items) != 2 {
		t.Errorf("/api/commits?n=2: %+v, want 2 commits looked at and more", two)
	}
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"session=sess-unloaded", []string{head}},
		{"session=sess-loaded", []string{first}},
		{"rule=" + url.QueryEscape(api), []string{head, first}},
		{"session=nobody", nil},
	} {
		var l commitcheck.Commits
		getJSON(t, base, "/api/commits?"+c.query, tok, &l)
		var ids []string
		for _, it := range l.Items {
			ids = append(ids, it.ID)
		}
		if !reflect.DeepEqual(ids, c.want) || l.Looked != 4 {
			t.Errorf("/api/commits?%s: %v, want %v among the 4 commits", c.query, ids, c.want)
		}
	}
	for path, want := range map[string]struct {
		status int
		says   string
	}{
		"/api/commits/no-such-branch": {http.StatusNotFound, "git log --oneline"},
		"/api/commits/main..":         {http.StatusBadRequest, "BASE..HEAD"},
		"/api/commits?n=zero":         {http.StatusBadRequest, "whole number"},
	} {
		if code, body := apiStatus(t, base, path, tok); code != want.status || !strings.Contains(body, want.says) {
			t.Errorf("GET %s: %d %s, want %d saying %q", path, code, body, want.status, want.says)
		}
	}
}

// TestDashboard_CommitsNoGit: the commit pages of a workspace in no git
// repository, and of one where git is not installed, answer a message
// that says so and what to do, never an empty page.
func TestDashboard_CommitsNoGit(t *testing.T) {
	plain := newWorkspace(t)
	base, _ := startUI(t, plain, nil, "--addr", "127.0.0.1:0")
	if code, body := apiStatus(t, base, "/api/commits", testbin.HTTPToken(t, plain)); code != http.StatusConflict || !strings.Contains(body, "not in a git repository") || !strings.Contains(body, "git init") {
		t.Errorf("no repository: /api/commits: %d %s, want 409 saying to git init", code, body)
	}
	repo := newWorkspace(t)
	gitInit(t, repo)
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-q", "-m", "base")
	base, _ = startUI(t, repo, []string{"PATH=" + t.TempDir()}, "--addr", "127.0.0.1:0")
	if code, body := apiStatus(t, base, "/api/commits/HEAD", testbin.HTTPToken(t, repo)); code != http.StatusConflict || !strings.Contains(body, "git is not installed") {
		t.Errorf("no git on PATH: /api/commits/HEAD: %d %s, want 409 saying git is not installed", code, body)
	}
}

// TestDashboard_CommitsBrowser opens the commit pages of clumsies ui in a
// real Chromium on the work of attestWork: the range's table has the
// rows check prints (who wrote each file, the session with its host and
// model, the rule in scope, loaded or not, the constraint referenced, the
// problems) and its verdict; the session page links to the commits with
// its edits, the rule page to those in its scope, a commit of the list
// to its page; the range form opens a range; an unknown revision shows a
// message.
func TestDashboard_CommitsBrowser(t *testing.T) {
	dir, api := attestWork(t)
	base, _ := startUI(t, dir, nil, "--addr", "127.0.0.1:0")
	tok := testbin.HTTPToken(t, dir)
	p := browserPage(t, base)
	p.open("/?token="+tok, "overview")

	p.open("/commits/main..feature", "commit")
	if got := p.text(`document.querySelector("[data-verdict]").textContent`); !strings.HasPrefix(got, "fails: ") {
		t.Errorf("the verdict: %q, want fails", got)
	}
	cell := func(file, field string) string {
		return p.text(`(document.querySelector('tr[data-file="` + file + `"] [data-field=` + field + `]') || {}).textContent || "missing"`)
	}
	for _, c := range []struct{ file, field, want string }{
		{"api/handler.go", "by", "agent"}, {"api/handler.go", "session", "sess-loaded claude-code claude-sonnet-4-5"},
		{"api/handler.go", "rules", api}, {"api/handler.go", "loaded", "yes"}, {"api/handler.go", "referenced", "Do/1"},
		{"api/handler.go", "problems", "–"},
		{"api/client.go", "by", "mixed"}, {"README.md", "by", "human"}, {"README.md", "session", "–"},
		{"api/retry.go", "by", "agent"}, {"api/retry.go", "session", "sess-unloaded claude-code claude-sonnet-4-5"}, {"api/retry.go", "loaded", "no"},
	} {
		if got := cell(c.file, c.field); got != c.want {
			t.Errorf("row %s, %s: %q, want %q", c.file, c.field, got, c.want)
		}
	}
	if got := cell("api/retry.go", "problems"); !strings.Contains(got, "in scope and not loaded") || !strings.Contains(got, "asks for block") {
		t.Errorf("row api/retry.go, problems: %q, want the rule not loaded and the gate off", got)
	}
	if n := p.number(`document.querySelectorAll("tr[data-file]").length`); n != 4 {
		t.Errorf("%d rows, want the 4 files of the range", n)
	}
	axeClean(t, p, "/commits/main..feature")

	// The session page links to the commits with its edits; the one
	// listed opens its page.
	p.open("/sessions/sess-unloaded", "session")
	p.text(`(document.querySelector("a[data-link=commits]").click(), "")`)
	p.waitPage("commits")
	head := gitIn(t, dir, "rev-parse", "feature")
	if got := p.text(`[...document.querySelectorAll("tr[data-commit]")].map((r) => r.dataset.commit).join(" ")`); got != head {
		t.Errorf("commits of sess-unloaded: %q, want %s", got, head)
	}
	p.text(`(document.querySelector("tr[data-commit] a").click(), "")`)
	p.waitPage("commit")
	if got := p.text(`[...document.querySelectorAll("tr[data-file]")].map((r) => r.dataset.file).join(" ")`); got != "api/retry.go" {
		t.Errorf("the page of %s: rows %q, want api/retry.go", head, got)
	}
	p.open("/rules/"+url.PathEscape(api), "rule")
	p.text(`(document.querySelector("a[data-link=commits]").click(), "")`)
	p.waitPage("commits")
	if n := p.number(`document.querySelectorAll("tr[data-commit]").length`); n != 2 {
		t.Errorf("commits in the scope of %s: %d, want the 2 of feature", api, n)
	}

	// The range form, and the address it stands for.
	p.open("/commits", "commits")
	axeClean(t, p, "/commits")
	p.text(`(document.getElementById("commit-range").value = "main..feature~1", document.querySelector("form[data-range-form]").requestSubmit(), "")`)
	p.wait(`location.pathname === "/commits/main..feature~1" && document.getElementById("app").dataset.page === "commit" && document.querySelector("[data-verdict]")`)
	if got := p.text(`document.querySelector("[data-verdict]").textContent`); got != "passes" {
		t.Errorf("main..feature~1: %q, want passes", got)
	}
	p.open("/commits?range=main..feature", "commit")
	if n := p.number(`document.querySelectorAll("tr[data-file]").length`); n != 4 {
		t.Errorf("/commits?range=main..feature: %d rows, want 4", n)
	}

	// An unknown revision: a message, not an empty page.
	if err := chromedp.Do(p.ctx, chromedp.Navigate(base+"/commits/no-such-branch")); err != nil {
		t.Fatal(err)
	}
	p.wait(`document.querySelector("#app .err")`)
	if got := p.text(`document.querySelector("#app .err").textContent`); !strings.Contains(got, "unknown revision") || !strings.Contains(got, "git log --oneline") {
		t.Errorf("an unknown revision shows %q", got)
	}
}

// axeClean runs axe-core on the page p shows, in the light and the dark
// scheme: no serious or critical violation, no content outside a
// landmark (as TestBrowser_Accessibility of package ui asks of every
// page).
func axeClean(t *testing.T, p *page, name string) {
	t.Helper()
	for _, scheme := range []string{"light", "dark"} {
		if err := browser.Scheme(p.ctx, scheme); err != nil {
			t.Fatal(err)
		}
		vs, err := browser.Axe(p.ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			if v.Serious() || v.ID == "region" {
				t.Errorf("%s, %s scheme: %s", name, scheme, v)
			}
		}
	}
}
