package hublink_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/internal/hubtest"
)

const rule = "# Go style\n\nHow we write Go.\n\n## Errors\n\n- wrap them\n"

func push(tb testing.TB, th *hubtest.Hub, team string, files ...hubwire.CatalogFile) hubwire.PushResult {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hubtest.Wait)
	defer cancel()
	res, err := th.H.PushCatalog(ctx, team, files)
	if err != nil {
		tb.Fatalf("push: %v", err)
	}
	return res
}

func openMirror(tb testing.TB, tn *hubtest.Node, team string) *hublink.Mirror {
	tb.Helper()
	js, err := jetstream.New(tn.N.Conn)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hubtest.Wait)
	defer cancel()
	m, err := hublink.OpenMirror(ctx, js, tn.ID.NodeID, team, hubtest.Logger())
	if err != nil {
		tb.Fatalf("open the mirror: %v", err)
	}
	tb.Cleanup(func() { m.Close() })
	return m
}

func waitRev(tb testing.TB, m *hublink.Mirror, rev uint64) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hubtest.Wait)
	defer cancel()
	if err := m.WaitRevision(ctx, rev); err != nil {
		tb.Fatal(err)
	}
}

func TestMirror_FollowsTheHub(t *testing.T) {
	th := hubtest.NewHub(t)
	res := push(t, th, "blue", hubwire.CatalogFile{Source: "rules/go/STYLE.md", Body: rule})
	tn := hubtest.Join(t, th, "blue")
	m := openMirror(t, tn, "blue")
	start := time.Now()
	waitRev(t, m, res.Revision)
	t.Logf("first sync after %s", time.Since(start))
	objs := m.Objects()
	if len(objs) != 1 || objs[0].Path != "go/STYLE.md" || objs[0].Revision != res.Published[0].Revision {
		t.Fatalf("got %+v, want go/STYLE.md at revision %d", objs, res.Published[0].Revision)
	}
	o, ok := m.Get(objs[0].ID)
	if !ok || o.Body != rule {
		t.Fatalf("got body %q, want %q", o.Body, rule)
	}
	res2 := push(t, th, "blue", hubwire.CatalogFile{Source: "rules/go/STYLE.md", Body: rule + "- check them\n"})
	start = time.Now()
	waitRev(t, m, res2.Revision)
	t.Logf("change after %s", time.Since(start))
	if o, _ := m.Get(objs[0].ID); o.Revision != res2.Revision || o.Body != rule+"- check them\n" {
		t.Fatalf("got %+v after the change, want revision %d", o, res2.Revision)
	}
}

// TestMirror_Offline checks that the mirror keeps serving while the hub is
// away and follows it again once it is back.
func TestMirror_Offline(t *testing.T) {
	th := hubtest.NewHub(t)
	res := push(t, th, "blue", hubwire.CatalogFile{Source: "rules/go/STYLE.md", Body: rule})
	tn := hubtest.Join(t, th, "blue")
	m := openMirror(t, tn, "blue")
	waitRev(t, m, res.Revision)
	id := res.Published[0].ID

	th.Stop()
	// A mirror opened again while the hub is away serves what it synced.
	m.Close()
	m = openMirror(t, tn, "blue")
	if o, ok := m.Get(id); !ok || o.Body != rule {
		t.Fatalf("offline: got %+v, want the synced body", o)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go m.FollowLink(ctx, func() bool {
		lz, err := tn.N.NATS.NATS().Leafz(nil)
		return err == nil && len(lz.Leafs) > 0
	})
	th.Start(t)
	start := time.Now()
	res2 := push(t, th, "blue", hubwire.CatalogFile{Source: "rules/go/STYLE.md", Body: rule + "- and more\n"})
	waitRev(t, m, res2.Revision)
	t.Logf("a change after the hub's restart reached the mirror after %s", time.Since(start))
	if o, _ := m.Get(id); o.Body != rule+"- and more\n" {
		t.Fatalf("got %q, want the new body", o.Body)
	}
}
