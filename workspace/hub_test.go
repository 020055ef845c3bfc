package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWorkspace_SetHubURL(t *testing.T) {
	ws, _, err := Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, url := range []string{"nats-leaf://hub.example:7422", "tls://other:7422"} {
		if err := ws.SetHubURL(url); err != nil {
			t.Fatalf("SetHubURL(%q): %v", url, err)
		}
		again, err := Open(ws.Root)
		if err != nil {
			t.Fatal(err)
		}
		if again.Config.Hub.URL != url || ws.Config.Hub.URL != url {
			t.Fatalf("got hub url %q (in memory %q), want %q", again.Config.Hub.URL, ws.Config.Hub.URL, url)
		}
		if again.ID() != ws.ID() {
			t.Fatalf("workspace id changed: %s -> %s", ws.ID(), again.ID())
		}
	}
	b, _ := os.ReadFile(filepath.Join(ws.MetaDir(), ConfigName))
	if n := strings.Count(string(b), "\nurl = "); n != 1 {
		t.Fatalf("config holds %d url lines, want 1:\n%s", n, b)
	}
}
