package main_test

import (
	"strings"
	"testing"
)

// TestHub_ServeSaysOnlyOurs: at the default log level `hub serve` prints
// what clumsies says, not nats-server's banner, and the configuration it
// generates draws no warning from nats-server (no plaintext password).
func TestHub_ServeSaysOnlyOurs(t *testing.T) {
	hp := newHubAt(t, "info")
	ws := newWorkspace(t)
	hp.join(t, ws, "red", "ann")
	mustRun(t, hp.dir, "hub", "nodes")
	said := hp.said.String()
	for _, line := range strings.Split(strings.TrimSpace(said), "\n") {
		if strings.Contains(line, "nats-server") || strings.Contains(line, "Plaintext") || strings.Contains(line, "level=WARN") {
			t.Errorf("hub serve said %q; want only clumsies' own lines at info level:\n%s", line, said)
		}
	}
}
