package main_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHub_UIAddress: `hub serve` says, at its default log level, the
// address that opens the team's dashboard with the admin's token, and
// `hub ui` prints it again (--json too; with a member's token from
// --token-file, that token); the address opens the dashboard (the token
// is taken and kept as a cookie). With the hub stopped, `hub ui` says
// how to start it.
func TestHub_UIAddress(t *testing.T) {
	hp := newHubAt(t, "info")
	admin := adminToken(t, hp)
	address := regexp.MustCompile(`open (\S+) once in a browser`)
	waitFor(t, "hub serve to say the dashboard's address", func() bool { return address.MatchString(hp.said.String()) })
	m := address.FindStringSubmatch(hp.said.String())
	if m == nil {
		t.Fatalf("hub serve said:\n%s\nwant the dashboard's address", hp.said.String())
	}
	said := m[1]
	if want := hp.api + "/?token=" + admin; said != want {
		t.Errorf("hub serve said the dashboard is at %q, want %q", said, want)
	}
	if got := strings.TrimSpace(mustRun(t, hp.dir, "hub", "ui")); got != said {
		t.Errorf("hub ui printed %q, want what hub serve said, %q", got, said)
	}
	var out struct{ URL string }
	if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "ui", "--json")), &out); err != nil || out.URL != said {
		t.Errorf("hub ui --json: %+v (%v), want url %q", out, err, said)
	}
	member := strings.TrimSpace(mustRun(t, hp.dir, "hub", "token", "--name", "cy", "--team", "blue"))
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte(member+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(mustRun(t, t.TempDir(), "hub", "ui", "--url", hp.api, "--token-file", file)); got != hp.api+"/?token="+url.QueryEscape(member) {
		t.Errorf("hub ui with a member's token printed %q, want the address with that token", got)
	}

	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(said)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || len(resp.Cookies()) != 1 {
		t.Errorf("opening %s: %d with cookies %v, want 303 keeping the token", said, resp.StatusCode, resp.Cookies())
	}

	hp.stop()
	r := run(t, hp.dir, "hub", "ui")
	if r.code == 0 || !strings.Contains(r.stderr, "clumsies hub serve") {
		t.Errorf("hub ui with the hub stopped: exit %d, stderr %q; want an error saying to start it", r.code, r.stderr)
	}
}
