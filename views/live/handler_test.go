package live_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/views/live"
)

// checkEvent fails tb unless m is the SSE message of want.
func checkEvent(tb testing.TB, m message, want events.Event) {
	tb.Helper()
	if m.id != strconv.FormatUint(want.Seq, 10) || m.event != string(want.Type) {
		tb.Fatalf("got message id %q event %q, want id %d event %s", m.id, m.event, want.Seq, want.Type)
	}
	if strings.Contains(m.data, "\n") {
		tb.Errorf("got data on several lines, want one: %q", m.data)
	}
	var got events.Event
	if err := json.Unmarshal([]byte(m.data), &got); err != nil {
		tb.Fatalf("decode data %q: %v", m.data, err)
	}
	if got.Seq != want.Seq || got.ID != want.ID || got.Type != want.Type || got.WorkspaceID != want.WorkspaceID {
		tb.Errorf("got envelope seq %d id %s type %s workspace %s, want seq %d id %s type %s workspace %s",
			got.Seq, got.ID, got.Type, got.WorkspaceID, want.Seq, want.ID, want.Type, want.WorkspaceID)
	}
}

func TestHandler_Stream(t *testing.T) {
	t.Run("Headers", func(t *testing.T) {
		ts := newServer(t, events.NewMemoryLog(), live.Options{})
		s := open(t, ts.URL, nil)
		for name, want := range map[string]string{
			"Content-Type":      "text/event-stream",
			"Cache-Control":     "no-cache",
			"X-Accel-Buffering": "no",
		} {
			if got := s.resp.Header.Get(name); got != want {
				t.Errorf("header %s: got %q, want %q", name, got, want)
			}
		}
	})

	t.Run("NewEventsInOrder", func(t *testing.T) {
		log := events.NewMemoryLog()
		appendRefers(t, log, 2) // before the stream: not delivered
		ts := newServer(t, log, live.Options{})
		s := open(t, ts.URL, nil)
		want := []events.Event{
			appendEvent(t, log, events.TypeSetup),
			appendEvent(t, log, events.TypeRefer),
			appendEvent(t, log, events.TypeCatalogPublish),
		}
		for _, ev := range want {
			checkEvent(t, s.nextEvent(t), ev)
		}
	})

	t.Run("FromReplaysEverything", func(t *testing.T) {
		log := events.NewMemoryLog()
		want := appendRefers(t, log, 3)
		ts := newServer(t, log, live.Options{})
		s := open(t, ts.URL+"?from=1", nil)
		want = append(want, appendEvent(t, log, events.TypeLoad))
		for _, ev := range want {
			checkEvent(t, s.nextEvent(t), ev)
		}
	})

	t.Run("TypeFilter", func(t *testing.T) {
		log := events.NewMemoryLog()
		refer := appendEvent(t, log, events.TypeRefer)
		appendEvent(t, log, events.TypeSetup)
		appendEvent(t, log, events.TypeDraftCreate)
		publish := appendEvent(t, log, events.TypeCatalogPublish)
		remove := appendEvent(t, log, events.TypeCatalogRemove)
		appendEvent(t, log, events.TypeDraftApply)
		ts := newServer(t, log, live.Options{})
		s := open(t, ts.URL+"?from=1&type=attest.refer&type=catalog", nil)
		for _, ev := range []events.Event{refer, publish, remove} {
			checkEvent(t, s.nextEvent(t), ev)
		}
		appendEvent(t, log, events.TypeDraftUpdate)
		last := appendEvent(t, log, events.TypeRefer)
		checkEvent(t, s.nextEvent(t), last)
	})
}

func TestHandler_Resume(t *testing.T) {
	t.Run("LastEventID", func(t *testing.T) {
		log := events.NewMemoryLog()
		all := appendRefers(t, log, 5)
		ts := newServer(t, log, live.Options{})

		first := open(t, ts.URL+"?from=1", nil)
		var lastID string
		for _, ev := range all[:2] {
			m := first.nextEvent(t)
			checkEvent(t, m, ev)
			lastID = m.id
		}
		first.close()
		all = append(all, appendRefers(t, log, 3)...)

		again := open(t, ts.URL+"?from=1", map[string]string{"Last-Event-ID": lastID})
		for _, ev := range all[2:] {
			checkEvent(t, again.nextEvent(t), ev)
		}
		// Nothing else comes before the next append: no duplicates.
		marker := appendEvent(t, log, events.TypeSetup)
		checkEvent(t, again.nextEvent(t), marker)
	})

	t.Run("Since", func(t *testing.T) {
		log := events.NewMemoryLog()
		all := appendRefers(t, log, 4)
		ts := newServer(t, log, live.Options{})
		s := open(t, ts.URL+"?since=2", nil)
		for _, ev := range all[2:] {
			checkEvent(t, s.nextEvent(t), ev)
		}
	})

	t.Run("HeaderWinsOverSince", func(t *testing.T) {
		log := events.NewMemoryLog()
		all := appendRefers(t, log, 4)
		ts := newServer(t, log, live.Options{})
		s := open(t, ts.URL+"?since=1", map[string]string{"Last-Event-ID": "3"})
		checkEvent(t, s.nextEvent(t), all[3])
	})

	t.Run("AtNewestWaits", func(t *testing.T) {
		log := events.NewMemoryLog()
		appendRefers(t, log, 2)
		ts := newServer(t, log, live.Options{})
		s := open(t, ts.URL, map[string]string{"Last-Event-ID": "2"})
		ev := appendEvent(t, log, events.TypeLoad)
		checkEvent(t, s.nextEvent(t), ev)
	})
}

func TestHandler_BadRequest(t *testing.T) {
	log := events.NewMemoryLog()
	appendRefers(t, log, 3)
	ts := newServer(t, log, live.Options{})
	for _, tc := range []struct {
		name, query, lastEventID string
		want                     string // in the body
	}{
		{"LastEventIDNotNumber", "", "abc", `invalid Last-Event-ID "abc"`},
		{"LastEventIDNegative", "", "-1", `invalid Last-Event-ID "-1"`},
		{"LastEventIDPastNewest", "", "9", "past the newest event (sequence 3)"},
		{"SinceNotNumber", "?since=x", "", `invalid since "x"`},
		{"SincePastNewest", "?since=4", "", "past the newest event"},
		{"SinceTwice", "?since=1&since=2", "", "since given 2 times"},
		{"FromZero", "?from=0", "", "from=0"},
		{"FromPastNewest", "?from=5", "", "past the newest event"},
		{"SinceAndFrom", "?since=1&from=1", "", "both since and from"},
		{"EmptyType", "?type=", "", "empty type filter"},
		{"UnknownType", "?type=attest.refr", "", `type filter "attest.refr" matches no event type`},
		{"PartialToken", "?type=attest.ref", "", "matches no event type"},
		{"UnknownParameter", "?types=catalog", "", `unknown query parameter "types"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			header := map[string]string{}
			if tc.lastEventID != "" {
				header["Last-Event-ID"] = tc.lastEventID
			}
			resp := get(t, t.Context(), ts.URL+tc.query, header)
			body := readBody(t, resp)
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("got status %d, want 400", resp.StatusCode)
			}
			if !strings.Contains(body, tc.want) {
				t.Errorf("got body %q, want it to contain %q", body, tc.want)
			}
		})
	}
}

func TestHandler_Method(t *testing.T) {
	ts := newServer(t, events.NewMemoryLog(), live.Options{})
	resp, err := http.Post(ts.URL, "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	readBody(t, resp)
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("got status %d, want 405", resp.StatusCode)
	}
	if got := resp.Header.Get("Allow"); got != http.MethodGet {
		t.Errorf("got Allow %q, want GET", got)
	}
}

func TestHandler_Heartbeat(t *testing.T) {
	log := events.NewMemoryLog()
	ts := newServer(t, log, live.Options{Heartbeat: 20 * time.Millisecond})
	s := open(t, ts.URL, nil)
	if m := s.next(t); m.comment != "ping" {
		t.Fatalf("got %+v while idle, want a ping comment", m)
	}
	ev := appendEvent(t, log, events.TypeRefer)
	checkEvent(t, s.nextEvent(t), ev)
	if m := s.next(t); m.comment != "ping" {
		t.Errorf("got %+v after the event, want a ping comment", m)
	}
}
