package main_test

import (
	"net/http"
	"regexp"
	"testing"
)

// TestUI_TokenStep: `ui --token T` says which URL to open in a browser,
// with the token step in it, and that URL lets the browser in.
func TestUI_TokenStep(t *testing.T) {
	dir := newWorkspace(t)
	url := startSaying(t, regexp.MustCompile(`open (http://\S+)`), "ui", "--workspace", dir, "--addr", "127.0.0.1:0", "--token", "t0ken-step")[1]
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || len(resp.Cookies()) != 1 {
		t.Fatalf("GET %s: %d with cookies %v; want 303 with the token's cookie (the URL to open carries the token step)", url, resp.StatusCode, resp.Cookies())
	}
}
