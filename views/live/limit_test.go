package live_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/views/live"
)

func TestHandler_MaxClients(t *testing.T) {
	ts := newServer(t, events.NewMemoryLog(), live.Options{MaxClients: 2})
	first := open(t, ts.URL, nil)
	open(t, ts.URL, nil)

	t.Run("Refused", func(t *testing.T) {
		resp := get(t, t.Context(), ts.URL, nil)
		body := readBody(t, resp)
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("got status %d, want 503", resp.StatusCode)
		}
		if got := resp.Header.Get("Retry-After"); got == "" {
			t.Errorf("got no Retry-After header, want one")
		}
		if want := "too many event streams open (at most 2)"; !strings.Contains(body, want) {
			t.Errorf("got body %q, want it to contain %q", body, want)
		}
	})

	t.Run("SlotFreedOnDisconnect", func(t *testing.T) {
		first.close()
		deadline := time.Now().Add(wait)
		for {
			resp := get(t, t.Context(), ts.URL, nil)
			if resp.StatusCode == http.StatusOK {
				resp.Body.Close()
				return
			}
			readBody(t, resp)
			if time.Now().After(deadline) {
				t.Fatalf("got status %d after a client left, want 200 within %s", resp.StatusCode, wait)
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}
