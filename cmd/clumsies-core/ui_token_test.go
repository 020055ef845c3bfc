package main_test

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// TestUI_TokenStep: `ui --token T` says which URL to open in a browser,
// with the token step in it, and that URL lets the browser in.
func TestUI_TokenStep(t *testing.T) {
	dir := newWorkspace(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, binary, "ui", "--workspace", dir, "--addr", "127.0.0.1:0", "--token", "t0ken-step")
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
	})
	open := regexp.MustCompile(`open (http://\S+)`)
	var url, said string
	for lines := bufio.NewScanner(stderr); url == "" && lines.Scan(); {
		said += lines.Text() + "\n"
		if m := open.FindStringSubmatch(lines.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatalf("ui --token said:\n%s\nwant the URL to open", said)
	}
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
