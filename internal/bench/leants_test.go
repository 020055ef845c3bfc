package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/internal/testbin"
)

// TestLeanTS_TimesEveryKind runs the lean section's TypeScript client
// driver briefly against the built binary and the echo server, with the
// calls the go-sdk client makes on a lean workspace, and checks that it
// times every kind as many times as asked, that it sees the answers the
// go-sdk client sees (memdisc's 50 items, the same sizes), and that it
// reads serve's peak RSS. It installs the driver's npm packages into the
// user's cache folder when missing (once); without node or npm it skips.
func TestLeanTS_TimesEveryKind(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH (%v): the TypeScript client driver needs Node.js 20 and npm", tool, err)
		}
	}
	ctx := t.Context()
	dir := t.TempDir()
	b := &bench{bin: filepath.Join(dir, "clumsies"), echo: filepath.Join(dir, "echo"), tmp: dir}
	if err := testbin.Build(b.bin, "../../cmd/clumsies"); err != nil {
		t.Fatal(err)
	}
	if err := testbin.Build(b.echo, "./echo"); err != nil {
		t.Fatal(err)
	}
	ws, err := leanWorkspace(ctx, b, "")
	if err != nil {
		t.Fatal(err)
	}
	calls, goSizes := goLeanCalls(t, b, ws)

	const loads, discs, spawns = 2 * leanTSRounds, leanTSRounds, 2
	r, err := runTSClient(ctx, leanTSPlan(b, ws, calls, loads, discs, spawns), t.Output())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"memload": loads, sizedEcho: loads, "memdisc": discs, "echo": discs, discSizedEcho: discs, "spawn serve": spawns, "spawn echo": spawns}
	for kind, n := range want {
		lat := r.lat(kind)
		if len(lat) != n {
			t.Errorf("%s: %d latencies, want %d", kind, len(lat), n)
		}
		for _, d := range lat {
			if d <= 0 || d > time.Minute {
				t.Errorf("%s: a latency of %s", kind, d)
			}
		}
	}
	if len(r.Lat) != len(want) {
		t.Errorf("kinds timed %v, want those of %v", keys(r.Lat), want)
	}
	// The TypeScript client decodes the same answers: JSON.stringify of
	// its structured content is as long as encoding/json's of the go-sdk
	// client's, but for the escapes each encoder chooses (Go writes <, >
	// and & as \u003c), none expected here.
	for kind, size := range goSizes {
		if r.Size[kind] != size {
			t.Errorf("%s: the TypeScript client decoded %d bytes, the go-sdk client %d", kind, r.Size[kind], size)
		}
	}
	if len(r.Peak) != 2 || r.Peak[0] < 4<<10 || r.Peak[1] < r.Peak[0] {
		t.Errorf("serve's peak RSS at the end of each phase = %v KiB, want two, growing, above 4 MiB", r.Peak)
	}
	if !strings.HasPrefix(r.Node, "v") {
		t.Errorf("node version %q", r.Node)
	}
}

// goLeanCalls makes, through the go-sdk client, the calls whose
// arguments the lean section hands to the TypeScript client, on a serve
// of ws and the echo server, and returns them with the size of each
// kind's structured answer as encoding/json writes it.
func goLeanCalls(t *testing.T, b *bench, ws string) (leanCalls, map[string]int) {
	t.Helper()
	ctx := t.Context()
	p, err := start(ctx, b.bin, "serve", "--workspace", ws, "--sync", "interval")
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	echo, err := start(ctx, b.echo)
	if err != nil {
		t.Fatal(err)
	}
	defer echo.close()
	hit, disc, err := leanHit(ctx, p, "bench-lean-go")
	if err != nil {
		t.Fatal(err)
	}
	load, err := p.call(ctx, "memload", hit)
	if err != nil {
		t.Fatal(err)
	}
	size := func(v any) int {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return len(raw)
	}
	discRaw, _ := json.Marshal(disc)
	loadRaw, _ := json.Marshal(load)
	calls := leanCalls{hit: hit, loadText: string(loadRaw), discText: string(discRaw)}
	sizes := map[string]int{"memdisc": len(discRaw), "memload": len(loadRaw)}
	for kind, text := range map[string]string{"echo": "hello", sizedEcho: calls.loadText, discSizedEcho: calls.discText} {
		res, err := echo.call(ctx, "echo", map[string]any{"text": text})
		if err != nil {
			t.Fatal(err)
		}
		sizes[kind] = size(res)
	}
	return calls, sizes
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestLeanTS_NoRegistrySaysSo asks for the driver's npm packages from a
// registry that does not answer, with an empty cache: the lean table gets
// a row saying the TypeScript client was not measured and why, and the
// section goes on.
func TestLeanTS_NoRegistrySaysSo(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skipf("npm is not on PATH (%v)", err)
	}
	t.Setenv("CLUMSIES_BENCH_CACHE", t.TempDir())
	t.Setenv("npm_config_cache", t.TempDir())
	t.Setenv("npm_config_registry", "http://127.0.0.1:9/")
	t.Setenv("npm_config_fetch_retries", "0")
	b := &bench{bin: "clumsies-not-run", echo: "echo-not-run", out: &strings.Builder{}}
	if err := leanTS(t.Context(), b, t.TempDir(), leanCalls{}, 0, leanTSRounds, leanTSRounds, 1); err != nil {
		t.Fatalf("leanTS without a registry: %v, want a row saying so", err)
	}
	row := b.out.String()
	if !strings.HasPrefix(row, "| TypeScript client | not measured: ") || !strings.Contains(row, "npm ci") || !strings.HasSuffix(row, "| not measured |\n") || strings.Count(row, "\n") != 1 {
		t.Errorf("the lean table's row = %q, want one row: the TypeScript client not measured, with npm's failure", row)
	}
}
