package main_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/jsblock"
	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/proof/ledger"
	"github.com/clumsies/clumsies/workspace"
)

// copyWorkspace copies a workspace's config and content (not its state)
// into a new folder, as a clone of its repository on another machine
// would hold them.
func copyWorkspace(tb testing.TB, dir string) string {
	tb.Helper()
	to := tb.TempDir()
	src := filepath.Join(dir, ".clumsies")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == "state" {
			return filepath.SkipDir
		}
		dst := filepath.Join(to, ".clumsies", rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return to
}

// exportTo runs clumsies export in dir with its output in a file.
func exportTo(tb testing.TB, dir, file string, args ...string) result {
	tb.Helper()
	f, err := os.Create(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(binary, append([]string{"export"}, args...)...)
	cmd.Dir = dir
	cmd.Stdout = f
	_, errs, code, err := testbin.Run(cmd)
	if err != nil {
		tb.Fatal(err)
	}
	return result{"", errs, code}
}

// TestCLI_ExportImport moves a served ledger to a clone of the workspace:
// `clumsies export > FILE` and `clumsies import FILE` give the same chain
// and read models, verify passes on the copy, an increment carries it
// forward, and a changed export is refused with the sequence named.
func TestCLI_ExportImport(t *testing.T) {
	dir := newWorkspace(t)
	_, cl := serve(t, dir, "--checkpoint-every", "3")
	setup(t, cl, "moving")
	wf := workflowID(t, cl)
	for i := 0; i < 4; i++ {
		call(t, cl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": wf, "constraintId": "Steps/1"}}})
	}
	call(t, cl, "artifact", map[string]any{"resource": "context", "op": map[string]any{"create": map[string]any{"path": "team/ONCALL", "body": "# On call\n"}}})
	cl.Close()

	file := filepath.Join(t.TempDir(), "ledger.jsonl.gz")
	if r := exportTo(t, dir, file, "--json"); r.code != 0 {
		t.Fatalf("export: exit %d: %s", r.code, r.stderr)
	} else if !strings.Contains(r.stderr, `"checkpoints":`) {
		t.Fatalf("export --json: got %q on stderr, want the summary", r.stderr)
	}
	var src struct {
		Chain struct {
			Digest      string
			Through     int
			Checkpoints int
			Verified    int
		}
		Digest string
	}
	if err := json.Unmarshal([]byte(mustRun(t, dir, "verify", "--json")), &src); err != nil {
		t.Fatal(err)
	}
	// serve's last act was a checkpoint of everything before it.
	if src.Chain.Checkpoints < 1 || src.Chain.Verified != src.Chain.Through-1 {
		t.Fatalf("a served ledger: got %+v, want a shutdown checkpoint covering all but itself", src.Chain)
	}

	clone := copyWorkspace(t, dir)
	var imp struct {
		Digest     string
		ReadModels string
		Events     int
	}
	if err := json.Unmarshal([]byte(mustRun(t, clone, "import", file, "--json")), &imp); err != nil {
		t.Fatal(err)
	}
	if imp.Digest != src.Chain.Digest || imp.ReadModels != src.Digest || imp.Events != src.Chain.Through {
		t.Fatalf("import: got %+v, want chain %s and read models %s over %d events", imp, src.Chain.Digest, src.Digest, src.Chain.Through)
	}
	if out := mustRun(t, clone, "verify"); !strings.Contains(out, "ok:") {
		t.Fatalf("verify of the copy: %s", out)
	}
	if r := run(t, clone, "import", file); r.code != 1 || !strings.Contains(r.stderr, "nothing to import") {
		t.Fatalf("a second import: got exit %d %q, want nothing to import", r.code, r.stderr)
	}

	// The original carries on; an increment brings the copy along.
	_, cl = serve(t, dir, "--checkpoint-every", "3")
	setup(t, cl, "moving-2")
	cl.Close()
	more := filepath.Join(t.TempDir(), "more.jsonl.gz")
	if r := exportTo(t, dir, more, "--since", "11"); r.code != 0 {
		t.Fatalf("export --since: exit %d: %s", r.code, r.stderr)
	}
	mustRun(t, clone, "import", more)
	if a, b := digestOf(t, mustRun(t, dir, "rebuild")), digestOf(t, mustRun(t, clone, "rebuild")); a != b {
		t.Fatalf("after the increment: read models %s and %s", a, b)
	}

	// A changed export is refused and nothing is stored.
	bad := filepath.Join(t.TempDir(), "bad.jsonl.gz")
	zr, err := gzip.NewReader(bytes.NewReader(mustRead(t, file)))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	changed := bytes.Replace(plain, []byte(`"constraintId":"Steps/1"`), []byte(`"constraintId":"Steps/2"`), 1)
	if bytes.Equal(changed, plain) {
		t.Fatal("the export holds no refer to change")
	}
	// The line changed names its sequence.
	at := bytes.Index(plain, []byte(`"constraintId":"Steps/1"`))
	line := plain[bytes.LastIndexByte(plain[:at], '\n')+1:]
	var changedSeq uint64
	if _, err := fmt.Sscanf(string(line), `{"seq":%d,`, &changedSeq); err != nil {
		t.Fatalf("the changed line %.80s: %v", line, err)
	}
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(changed)
	zw.Close()
	if err := os.WriteFile(bad, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := copyWorkspace(t, dir)
	r := run(t, fresh, "import", bad)
	if want := fmt.Sprintf("hash chain broken at seq %d: the line of seq %d was changed", changedSeq, changedSeq); r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Fatalf("import of a changed export: got exit %d %q, want a refusal naming the sequence (%q)", r.code, r.stderr, want)
	}
	if evs := eventLines(t, fresh); len(evs) != 0 {
		t.Fatalf("a refused import left %d events", len(evs))
	}

	// Command-line mistakes.
	if r := run(t, fresh, "import"); r.code != 2 {
		t.Fatalf("import without a file: exit %d, want 2", r.code)
	}
	if r := run(t, fresh, "export", "stray"); r.code != 2 {
		t.Fatalf("export with a stray argument: exit %d, want 2", r.code)
	}
}

// reported returns a workspace whose serve, now stopped, took n agent
// reports with this summary in the session "damaged".
func reported(t *testing.T, n int, summary string) string {
	t.Helper()
	dir := newWorkspace(t)
	_, cl := serve(t, dir)
	setup(t, cl, "damaged")
	for range n {
		call(t, cl, "agentreport", map[string]any{"summary": summary})
	}
	cl.Close()
	return dir
}

// TestCLI_VerifyDamagedStore cuts the stream's message block in half with
// nothing running, as a lost tail would: the owner cannot start its read
// models, and verify still names the first sequence missing.
func TestCLI_VerifyDamagedStore(t *testing.T) {
	dir := reported(t, 20, "a report long enough to fill the block a little")
	blocks, _ := filepath.Glob(filepath.Join(dir, ".clumsies", "state", "jetstream", "*", "streams", "*", "msgs", "*.blk"))
	if len(blocks) != 1 {
		t.Fatalf("got message blocks %v, want one", blocks)
	}
	info, err := os.Stat(blocks[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(blocks[0], info.Size()/2); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, "verify")
	if r.code != 1 || !strings.Contains(r.stdout, "ledger chain broken at seq ") || !strings.Contains(r.stdout, "are missing") {
		t.Fatalf("verify of a damaged store: exit %d\nstdout: %s\nstderr: %s\nwant exit 1 naming the first missing sequence", r.code, r.stdout, r.stderr)
	}
	t.Log(r.stdout)
}

// TestCLI_ImportLineTooLong imports a file that is one line of 200 MiB,
// gzip-compressed: import says the line is too long, naming it and the
// limit, not that the file is cut short, and stores nothing.
func TestCLI_ImportLineTooLong(t *testing.T) {
	dir := newWorkspace(t)
	file := filepath.Join(t.TempDir(), "one-line.jsonl.gz")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	mib := bytes.Repeat([]byte("x"), 1<<20)
	for range 200 {
		if _, err := zw.Write(mib); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, "import", file)
	if r.code == 0 || !strings.Contains(r.stderr, "line 1 too long: over 16777216 bytes (16 MiB)") || strings.Contains(r.stderr, "cut short") {
		t.Fatalf("import of one 200 MiB line: exit %d, stderr %q; want a refusal saying line 1 is too long", r.code, r.stderr)
	}
	if out := mustRun(t, dir, "events", "--json"); strings.TrimSpace(out) != "" {
		t.Fatalf("events after the refused import: %q, want none", out)
	}
}

// TestCLI_VerifyNamesDamage removes a message from a stopped workspace's
// store, rewrites another with a valid record checksum and cuts the
// tail: verify, with no owner to start, opens the store itself and names
// each sequence, and leaves the read models as they were (an owner would
// have rebuilt them, ahead of the stream, and forgotten what they saw).
func TestCLI_VerifyNamesDamage(t *testing.T) {
	dir := reported(t, 10, "work")
	var reports []uint64
	for _, ev := range eventLines(t, dir) {
		if ev["type"] == string(events.TypeAgentReport) {
			reports = append(reports, uint64(ev["seq"].(float64)))
		}
	}
	if len(reports) != 10 {
		t.Fatalf("got reports at %v, want 10", reports)
	}
	ws, err := workspace.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	removed, rewritten, cut := reports[2], reports[5], reports[7]
	b := jsblock.Read(t, ws, 1)
	b.Erase(t, removed)
	b.Replace(t, rewritten, `"summary":"work"`, `"summary":"play"`)
	b.Write(t, cut)

	for range 2 { // the second run finds what the first did: nothing was rebuilt
		r := run(t, dir, "verify", "--json")
		var got struct {
			OK    bool          `json:"ok"`
			Chain ledger.Result `json:"chain"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 1 || got.OK {
			t.Fatalf("verify of a damaged store: exit %d, %v\nstdout: %s\nstderr: %s", r.code, err, r.stdout, r.stderr)
		}
		c := got.Chain
		if c.Problem == nil || c.Problem.Seq != removed || len(c.Missing) != 2 || c.Missing[0] != (ledger.Span{From: removed, To: removed}) ||
			c.Missing[1].From != cut+1 || c.Missing[1].To < reports[9] || !slices.Equal(c.Changed, []uint64{rewritten}) {
			t.Fatalf("verify: got %+v; want the chain broken at seq %d, missing %d and %d.., rewritten %d", c, removed, removed, cut+1, rewritten)
		}
		if _, err := os.Stat(filepath.Join(ws.StateDir(), "ledger-mark.json")); !os.IsNotExist(err) {
			t.Fatalf("verify rebuilt the read models (a ledger mark: %v)", err)
		}
	}
	t.Log(run(t, dir, "verify").stdout)
}
