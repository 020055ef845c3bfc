package hub_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// getOK reads path with the query v from srv with token, failing the
// test unless it answers 200.
func getOK(t *testing.T, srv *httptest.Server, token, path string, v url.Values) []byte {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+path+"?"+v.Encode(), nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s?%s: %d %s (%v)", path, v.Encode(), resp.StatusCode, b, err)
	}
	return b
}

// summaryBound is the most the stats summary may weigh, whatever the
// number of sessions.
const summaryBound = 32 << 10

// TestStats_BoundedSummaryAndPages has a linked node record sessions
// that each load a published rule, 30 of them then 300: the summary
// (GET /api/stats) stays under a fixed size and about the same size while
// the sessions grow tenfold, and says how many sessions it left off; the
// sessions' pages, walked with a small limit, give every session exactly
// once, in the order of the whole answer; the client's Stats, which walks
// the pages, equals the whole answer.
func TestStats_BoundedSummaryAndPages(t *testing.T) {
	th := newTestHub(t)
	tn := joinNode(t, th, "red", "")
	admin, err := th.cfg.AdminToken()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(hub.Handler(th.h, admin))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	appendEv := func(session string, typ events.Type, payload any) {
		t.Helper()
		ev, err := events.New(tn.ws.ID(), typ, payload)
		if err != nil {
			t.Fatal(err)
		}
		ev.SessionID = session
		if _, err := tn.n.Log.Append(ctx, ev); err != nil {
			t.Fatalf("append: %v", err)
		}
	}
	appendEv("", events.TypeCatalogPublish, events.PublishData{ID: "p-1", Kind: "rule", Path: "style/A.md", Body: "# A\n\nWhat A asks.\n\n## C\n\n- one\n"})
	sessions := 0
	grow := func(to int) {
		t.Helper()
		for ; sessions < to; sessions++ {
			appendEv(fmt.Sprintf("sess-%04d", sessions), events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: "p-1", Hash: "h", Changed: true}}})
		}
		deadline := time.Now().Add(wait)
		for {
			st, err := th.h.Stats(hub.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Evidence.Sessions) == to {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the hub shows %d sessions, want %d", len(st.Evidence.Sessions), to)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	get := func(path string, v url.Values) []byte {
		t.Helper()
		return getOK(t, srv, admin, path, v)
	}
	summary := func() (hubwire.Stats, int) {
		t.Helper()
		b := get("/api/stats", nil)
		var st hubwire.Stats
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		return st, len(b)
	}

	grow(30)
	_, small := summary()
	grow(300)
	st, large := summary()
	t.Logf("the summary weighs %d bytes with 30 sessions, %d with 300", small, large)
	if large > summaryBound || large > small+small/10 {
		t.Errorf("the summary weighs %d bytes with 30 sessions and %d with 300: want at most %d and about the same", small, large, summaryBound)
	}
	if len(st.Evidence.Sessions) != hubwire.SummaryItems || st.More.Sessions != 300-hubwire.SummaryItems {
		t.Errorf("the summary holds %d sessions and leaves off %d, want %d and %d", len(st.Evidence.Sessions), st.More.Sessions,
			hubwire.SummaryItems, 300-hubwire.SummaryItems)
	}
	if st.Evidence.Rules[0].Loaded != 300 {
		t.Errorf("the summary's evidence of p-1: %+v, want loaded in the 300 sessions", st.Evidence.Rules[0])
	}

	whole, err := th.h.Stats(hub.Query{})
	if err != nil {
		t.Fatal(err)
	}
	var walked []hubwire.SessionEvidence
	v := url.Values{"limit": {"7"}}
	for pages := 0; ; pages++ {
		if pages > 300 {
			t.Fatal("the pages do not end")
		}
		var p hubwire.Page[hubwire.SessionEvidence]
		if err := json.Unmarshal(get("/api/stats/sessions", v), &p); err != nil {
			t.Fatal(err)
		}
		if len(p.Items) > 7 || p.Total != 300 {
			t.Fatalf("a page of limit 7 holds %d sessions of a total %d", len(p.Items), p.Total)
		}
		walked = append(walked, p.Items...)
		if p.Next == "" {
			break
		}
		v.Set("cursor", p.Next)
	}
	ids := func(ss []hubwire.SessionEvidence) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return out
	}
	if got, want := ids(walked), ids(whole.Evidence.Sessions); !slices.Equal(got, want) || len(got) != 300 {
		t.Errorf("the pages give %d sessions (%v...), want the whole answer's %d, each once, in its order", len(got), got[:min(3, len(got))], len(want))
	}

	client, err := hubwire.NewClient(srv.URL, admin).Stats(ctx, hubwire.StatsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(client.Evidence.Sessions), ids(whole.Evidence.Sessions); !slices.Equal(got, want) || client.Totals != whole.Totals {
		t.Errorf("the client's stats: %d sessions, totals %+v; the whole answer: %d, %+v", len(got), client.Totals, len(want), whole.Totals)
	}

	for _, bad := range []url.Values{{"limit": {"0"}}, {"limit": {strconv.Itoa(hubwire.MaxLimit + 1)}}, {"cursor": {"not-a-cursor"}}, {"page": {"2"}}} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/stats/sessions?"+bad.Encode(), nil)
		req.Header.Set("Authorization", "Bearer "+admin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e hubwire.APIError
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || e.Code != hubwire.CodeInvalid || e.Error == "" {
			t.Errorf("sessions with %v: %d %+v, want 400 invalid with the reason", bad, resp.StatusCode, e)
		}
	}
}
