package hub_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
)

const styleRule = "# Go style\n\nHow we write Go.\n\n## Errors\n\n- wrap them\n"

func pushFiles(t *testing.T, th *testHub, team string, files ...hubwire.CatalogFile) hubwire.PushResult {
	t.Helper()
	res, err := th.h.PushCatalog(context.Background(), team, files)
	if err != nil {
		t.Fatalf("push: %v", err)
	}
	return res
}

// TestCatalog_Push checks that a push makes the catalog hold the tree:
// a revision per change, nothing written when nothing changed, ids kept
// across edits and renames, removed objects gone, the meta prompt skipped.
func TestCatalog_Push(t *testing.T) {
	th := newTestHub(t)
	first := pushFiles(t, th, "blue",
		hubwire.CatalogFile{Source: "META_PROMPT.md", Body: "# Meta\n"},
		hubwire.CatalogFile{Source: "rules/go/STYLE.md", Body: styleRule},
		hubwire.CatalogFile{Source: "context/ARCH.md", Body: "# Arch\n"})
	if len(first.Published) != 2 || len(first.Skipped) != 1 || first.Revision != 2 {
		t.Fatalf("first push: got %+v, want 2 published at revision 2, the meta prompt skipped", first)
	}
	same := pushFiles(t, th, "blue",
		hubwire.CatalogFile{Source: "rules/go/STYLE.md", Body: styleRule},
		hubwire.CatalogFile{Source: "context/ARCH.md", Body: "# Arch\n"})
	if len(same.Published)+len(same.Removed) != 0 || same.Revision != first.Revision {
		t.Fatalf("unchanged push: got %+v, want nothing written at revision %d", same, first.Revision)
	}
	styleID := first.Published[1].ID
	if first.Published[1].Path != "go/STYLE.md" {
		styleID = first.Published[0].ID
	}
	moved := pushFiles(t, th, "blue", hubwire.CatalogFile{Source: "rules/go/STYLE2.md", Body: styleRule})
	if len(moved.Published) != 1 || moved.Published[0].ID != styleID || len(moved.Removed) != 1 || moved.Removed[0].Path != "ARCH.md" {
		t.Fatalf("rename and remove: got %+v, want %s kept at go/STYLE2.md and ARCH.md removed", moved, styleID)
	}
	m, err := th.h.TeamManifest(context.Background(), "blue")
	if err != nil {
		t.Fatal(err)
	}
	if m.Revision != moved.Revision || len(m.Objects) != 1 || m.Objects[0].Path != "go/STYLE2.md" || m.Objects[0].Body != "" {
		t.Fatalf("manifest: got %+v, want go/STYLE2.md alone at revision %d, no body", m, moved.Revision)
	}
	if got := ledgerTypes(t, th); strings.Join(got, ",") != "catalog.publish,catalog.publish,catalog.publish,catalog.remove" {
		t.Fatalf("the hub's ledger holds %v, want the four catalog changes", got)
	}
	hist, err := th.h.TeamHistory(context.Background(), "blue", styleID)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 || hist[0].Path != "go/STYLE.md" || hist[1].Path != "go/STYLE2.md" {
		t.Fatalf("history: got %+v, want the two paths", hist)
	}
	_, err = th.h.PushCatalog(context.Background(), "blue", []hubwire.CatalogFile{{Source: "rules/../x.md", Body: "# X\n"}})
	if !errors.Is(err, hub.ErrInvalid) {
		t.Fatalf("an unsafe path: got %v, want ErrInvalid", err)
	}
	_, err = th.h.PushCatalog(context.Background(), "blue", []hubwire.CatalogFile{
		{Source: "rules/go/STYLE2.md", Body: styleRule},
		{Source: "rules/a/NOTITLE.md", Body: "Words.\n\n## S\n\n- x\n"},
		{Source: "rules/b/NOSECTIONS.md", Body: "# T\n\nWords.\n"}})
	if !errors.Is(err, hub.ErrInvalid) || !strings.Contains(err.Error(), "rules/a/NOTITLE.md: it has no title") ||
		!strings.Contains(err.Error(), "rules/b/NOSECTIONS.md: it has no sections") {
		t.Fatalf("malformed rules: got %v, want both named", err)
	}
	if m, _ := th.h.TeamManifest(context.Background(), "blue"); m.Revision != moved.Revision {
		t.Fatalf("a refused push wrote: revision %d, want %d", m.Revision, moved.Revision)
	}
}

// TestCatalog_ManifestETag checks GET /api/teams/T/manifest: the ETag is
// the revision, If-None-Match gets 304 until the catalog changes, a member
// of another team is refused.
func TestCatalog_ManifestETag(t *testing.T) {
	th := newTestHub(t)
	pushFiles(t, th, "blue", hubwire.CatalogFile{Source: "rules/go/STYLE.md", Body: styleRule})
	srv := httptest.NewServer(hub.Handler(th.h, "admin-token"))
	defer srv.Close()
	blue := memberToken(t, srv.URL, "bo", "blue")
	red := memberToken(t, srv.URL, "ro", "red")

	get := func(token, etag string) (*http.Response, hubwire.Manifest) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+"/api/teams/blue/manifest", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m hubwire.Manifest
		if resp.StatusCode == http.StatusOK {
			if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
				t.Fatal(err)
			}
		}
		return resp, m
	}
	resp, m := get(blue, "")
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != 200 || etag != `"1"` || len(m.Objects) != 1 {
		t.Fatalf("first request: %d %s %+v, want 200 with ETag \"1\"", resp.StatusCode, etag, m)
	}
	if resp, _ := get(blue, etag); resp.StatusCode != http.StatusNotModified {
		t.Fatalf("If-None-Match %s: got %d, want 304", etag, resp.StatusCode)
	}
	pushFiles(t, th, "blue", hubwire.CatalogFile{Source: "rules/go/STYLE.md", Body: styleRule + "- check\n"})
	resp, m = get(blue, etag)
	if resp.StatusCode != 200 || resp.Header.Get("ETag") != `"2"` || m.Revision != 2 {
		t.Fatalf("after a change: %d %s, want 200 with ETag \"2\"", resp.StatusCode, resp.Header.Get("ETag"))
	}
	if resp, _ := get(red, ""); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a member of red: got %d, want 403", resp.StatusCode)
	}
	if resp, _ := get("nope", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("an unknown token: got %d, want 401", resp.StatusCode)
	}
}

// ledgerTypes returns the types of the events in the hub's ledger, in
// order.
func ledgerTypes(t *testing.T, th *testHub) []string {
	t.Helper()
	nc, err := th.h.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx := context.Background()
	st, err := js.Stream(ctx, hubwire.LedgerStream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for seq := uint64(1); seq <= info.State.LastSeq; seq++ {
		m, err := st.GetMsg(ctx, seq)
		if err != nil {
			t.Fatal(err)
		}
		var ev hubwire.LedgerEvent
		if err := json.Unmarshal(m.Data, &ev); err != nil {
			t.Fatal(err)
		}
		out = append(out, string(ev.Type))
	}
	return out
}

func memberToken(t *testing.T, url, name, team string) string {
	t.Helper()
	token, err := hubwire.NewClient(url, "admin-token").MemberToken(context.Background(), hubwire.TokenRequest{Name: name, Teams: []string{team}})
	if err != nil || token == "" {
		t.Fatalf("make a member token: %q, %v", token, err)
	}
	return token
}

// TestCatalog_PushesDoNotUpdateTheStream: a team's catalog bucket is made
// once and never updated by pushes, the views they read or the
// revisions they return; an update of a stream goes through a cluster's
// meta leader, and every push sent one per changed object and more.
func TestCatalog_PushesDoNotUpdateTheStream(t *testing.T) {
	th := newTestHub(t)
	nc, err := th.h.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	updates, err := nc.SubscribeSync("$JS.EVENT.ADVISORY.STREAM.UPDATED.>")
	if err != nil {
		t.Fatal(err)
	}
	created, err := nc.SubscribeSync("$JS.EVENT.ADVISORY.STREAM.CREATED." + hubwire.CatalogStream("blue"))
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	pushFiles(t, th, "blue", hubwire.CatalogFile{Source: "rules/go/STYLE.md", Body: styleRule})
	pushFiles(t, th, "blue", hubwire.CatalogFile{Source: "rules/go/STYLE.md", Body: styleRule + "- test them\n"},
		hubwire.CatalogFile{Source: "context/ARCH.md", Body: "# Arch\n"})
	pushFiles(t, th, "blue", hubwire.CatalogFile{Source: "context/ARCH.md", Body: "# Arch\n"})
	if _, err := created.NextMsg(wait); err != nil {
		t.Fatalf("no advisory of the catalog's creation: %v", err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	if msg, err := updates.NextMsg(500 * time.Millisecond); err == nil {
		t.Fatalf("three pushes updated a stream: %s", msg.Subject)
	}
}
