package hub_test

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/workspace"
)

// TestUpgrade_FromReloadingRelease opens a hub made by the release that
// kept the nodes' accounts in its generated configuration and reloaded it
// on every join: testdata/hub-before-inprocess-accounts.tar.gz holds its
// folder (hub "old-hub", node n-43a4706bb72605a5 of team red with 3
// events sourced, node n-7419c47582539763 of team blue revoked) and the
// two workspace clones, made with that release's binary by `hub init`,
// `hub serve`, `hub invite`, `hub join`, `ui`, `hub revoke`, then stopped
// with SIGTERM. The hub starts from them as they are: its aggregate and
// read models keep the 3 events, the active node links with its old key
// and is sourced again, and the revoked node stays refused.
func TestUpgrade_FromReloadingRelease(t *testing.T) {
	dir := t.TempDir()
	untar(t, filepath.Join("testdata", "hub-before-inprocess-accounts.tar.gz"), dir)
	cfg, err := hub.ReadConfig(filepath.Join(dir, "hub"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Leaf = "127.0.0.1:" + strconv.Itoa(freePort(t))
	cfg.HTTP = "127.0.0.1:" + strconv.Itoa(freePort(t))
	th := &testHub{dir: filepath.Join(dir, "hub"), cfg: cfg}
	th.start(t)
	t.Cleanup(th.stop)

	conf, err := os.ReadFile(filepath.Join(cfg.DataDir(), "nats.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(conf), "N_n-") || strings.Contains(string(conf), "nkey") {
		t.Fatalf("the configuration names nodes or users:\n%s", conf)
	}
	if got := len(th.h.Nodes()); got != 2 {
		t.Fatalf("got %d nodes, want 2", got)
	}
	want := map[string]bool{}
	for id := range aggregate(t, th) {
		want[id] = true
	}
	if len(want) != 3 {
		t.Fatalf("the aggregate holds %d events, want the 3 of the old hub", len(want))
	}

	active := openOld(t, filepath.Join(dir, "ws"), "nats-leaf://"+cfg.Leaf)
	revoked := openOld(t, filepath.Join(dir, "ws2"), "nats-leaf://"+cfg.Leaf)
	addAll(want, active.appendN(t, 5))
	waitCounted(t, th, want)
	if !th.h.Link(active.id.NodeID).Up {
		t.Fatalf("node %s of the old hub is not linked", active.id.NodeID)
	}
	// The revoked node redials every second: it had tries enough while
	// the active node's events arrived; give it one more.
	time.Sleep(1500 * time.Millisecond)
	if l := th.h.Link(revoked.id.NodeID); l.Up {
		t.Fatalf("revoked node %s is linked", revoked.id.NodeID)
	}
}

// fixtureDay is the UTC day the fixture's events were made.
const fixtureDay = "2026-11-29"

// counted is how many events the hub counts on the fixture's day and today.
func counted(tb testing.TB, th *testHub) int {
	tb.Helper()
	days := []hub.Query{{Since: fixtureDay, Until: fixtureDay}}
	if today := time.Now().UTC().Format(time.DateOnly); today != fixtureDay {
		days = append(days, hub.Query{Days: 1})
	}
	n := 0
	for _, q := range days {
		st, err := th.h.Stats(q)
		if err != nil {
			tb.Fatal(err)
		}
		if st.Refused > 0 {
			tb.Fatalf("the hub refused %d messages", st.Refused)
		}
		n += int(st.Totals.Events)
	}
	return n
}

// openOld opens a workspace clone of the fixture as its owner, linked to
// the hub at url.
func openOld(tb testing.TB, root, url string) *testNode {
	tb.Helper()
	ws, err := workspace.Open(root)
	if err != nil {
		tb.Fatal(err)
	}
	id, err := hublink.LoadIdentity(ws.StateDir())
	if err != nil {
		tb.Fatal(err)
	}
	tn := &testNode{ws: ws, id: id, url: url}
	tn.open(tb)
	tb.Cleanup(tn.close)
	return tn
}

// untar extracts the gzipped tar file into dir.
func untar(tb testing.TB, file, dir string) {
	tb.Helper()
	f, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			tb.Fatal(err)
		}
		name := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(name, dir+string(filepath.Separator)) {
			tb.Fatalf("%s leaves the folder", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(name, 0o700)
		case tar.TypeReg:
			err = writeFrom(name, tr, h.FileInfo().Mode().Perm())
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
}

func writeFrom(name string, r io.Reader, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
