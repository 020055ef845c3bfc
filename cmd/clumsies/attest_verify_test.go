package main_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"

	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/proof/attest"
)

// verdict is one element of verify commit --json.
type verdict struct {
	attest.Verification
	Attested bool
}

// verifyJSON runs verify commit --json and returns its exit status and
// verdicts.
func verifyJSON(tb testing.TB, dir string, args ...string) (int, []verdict) {
	tb.Helper()
	r := run(tb, dir, append([]string{"verify", "commit", "--json"}, args...)...)
	var vs []verdict
	if err := json.Unmarshal([]byte(r.stdout), &vs); err != nil {
		tb.Fatalf("verify commit %v: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
	}
	return r.code, vs
}

// problems joins the problems of vs.
func problems(vs []verdict) string {
	var all []string
	for _, v := range vs {
		all = append(all, v.Problems...)
	}
	return strings.Join(all, "\n")
}

// TestAttest_Verify: verify commit accepts the notes attest stored, with
// the ledger attributing the commits again; an OpenSSH key works as a
// .pub line and as an allowed-signers line; a wrong key, a predicate
// changed after signing, a forged predicate signed with the right key, a
// blob edited after attestation and a commit without attestation are
// refused with the reason and the documented exit status.
func TestAttest_Verify(t *testing.T) {
	dir, _ := attestWork(t)
	keys := t.TempDir()
	k := opensslKey(t, keys, "attest")
	mustRun(t, dir, "attest", "main..feature", "--key", k.priv)
	if code, vs := verifyJSON(t, dir, "main..feature", "--key", k.pub); code != 0 || len(vs) != 2 || !vs[0].OK || !vs[1].OK ||
		vs[0].Ledger != attest.LedgerChecked || vs[0].KeyID == "" || vs[0].ChainVerified < vs[0].Predicate.Ledger.Through {
		t.Fatalf("verify commit main..feature: exit %d, %+v; want both ok, the ledger checked", code, vs)
	}
	if out := mustRun(t, dir, "verify", "commit", "HEAD", "--key", k.pub); !strings.Contains(out, " ok ") || !strings.Contains(out, "ledger checked (its chain holds through seq") {
		t.Fatalf("verify commit HEAD: %s", out)
	}

	t.Run("WhileServeOwnsTheWorkspace", func(t *testing.T) {
		// Through the owner, the events come with their stored bytes: the
		// chain is proven the same.
		_, cl := serve(t, dir)
		defer cl.Close()
		if code, vs := verifyJSON(t, dir, "HEAD", "--key", k.pub); code != 0 || !vs[0].OK || vs[0].Ledger != attest.LedgerChecked || vs[0].ChainVerified == 0 {
			t.Fatalf("verify commit with serve running: exit %d, %+v", code, vs)
		}
		mustRun(t, dir, "attest", "HEAD", "--key", k.priv, "--no-note")
	})

	t.Run("OpenSSHKey", func(t *testing.T) {
		sk := sshKey(t, keys, "id_ed25519")
		out := filepath.Join(keys, "ssh.intoto.jsonl")
		mustRun(t, dir, "attest", "HEAD", "--key", sk.priv, "--no-note", "--out", out)
		allowed := filepath.Join(keys, "allowed_signers")
		writeFile(t, allowed, "# who may sign\ndev@example.com namespaces=\"git\" "+string(mustRead(t, sk.pub)))
		for _, pub := range []string{sk.pub, allowed} {
			if code, vs := verifyJSON(t, dir, "HEAD", "--key", pub, "--attestation", out); code != 0 || !vs[0].OK {
				t.Errorf("%s key (%s) in %s: exit %d, %+v", sk.how, filepath.Base(pub), out, code, vs)
			}
		}
		// The notes were signed with the other key.
		if code, vs := verifyJSON(t, dir, "HEAD", "--key", sk.pub); code != 1 || !strings.Contains(problems(vs), "signature does not verify") {
			t.Errorf("the notes with the OpenSSH key: exit %d, %q; want 1, the signature refused", code, problems(vs))
		}
	})

	t.Run("WrongKey", func(t *testing.T) {
		other := opensslKey(t, keys, "other")
		if code, vs := verifyJSON(t, dir, "main..feature", "--key", other.pub); code != 1 || len(vs) != 2 || vs[0].OK ||
			!strings.Contains(problems(vs), "signature does not verify") {
			t.Fatalf("another key: exit %d, %q; want 1, the signature refused", code, problems(vs))
		}
	})

	note := gitIn(t, dir, "notes", "--ref=clumsies-attest", "show", "HEAD~1")
	var env dsse.Envelope
	if err := json.Unmarshal([]byte(note), &env); err != nil {
		t.Fatal(err)
	}
	body, err := base64.StdEncoding.DecodeString(env.Payload)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("ChangedPredicate", func(t *testing.T) {
		changed := strings.Replace(string(body), `"mixed"`, `"agent"`, 1)
		if changed == string(body) {
			t.Fatalf("the statement has no mixed file: %s", body)
		}
		bad := env
		bad.Payload = base64.StdEncoding.EncodeToString([]byte(changed))
		file := filepath.Join(t.TempDir(), "changed.intoto.jsonl")
		b, _ := json.Marshal(bad)
		writeFile(t, file, string(b)+"\n")
		if code, vs := verifyJSON(t, dir, "HEAD~1", "--key", k.pub, "--attestation", file); code != 1 || !strings.Contains(problems(vs), "signature does not verify") {
			t.Fatalf("a predicate changed after signing: exit %d, %q; want 1, the signature refused", code, problems(vs))
		}
	})

	t.Run("ForgedPredicate", func(t *testing.T) {
		// Signed with the right key, the claim that a human wrote
		// api/client.go is refused by the ledger.
		_, p, err := attest.ParseStatement(body)
		if err != nil {
			t.Fatal(err)
		}
		for i := range p.Files {
			if p.Files[i].Path == "api/client.go" {
				p.Files[i].By, p.Files[i].Edits, p.Files[i].Note = attest.ByHuman, []attest.Edit{}, ""
			}
		}
		priv, err := attest.ParsePrivateKey(mustRead(t, k.priv))
		if err != nil {
			t.Fatal(err)
		}
		forged, err := attest.Sign(context.Background(), p, priv)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "forged.intoto.jsonl")
		b, _ := json.Marshal(forged)
		writeFile(t, file, string(b)+"\n")
		code, vs := verifyJSON(t, dir, "HEAD~1", "--key", k.pub, "--attestation", file)
		if code != 1 || vs[0].Ledger != attest.LedgerMismatch || !strings.Contains(problems(vs), "api/client.go: the attestation says human") ||
			!strings.Contains(problems(vs), "the ledger says mixed") {
			t.Fatalf("a forged predicate: exit %d, ledger %s, %q; want 1, the ledger's attribution named", code, vs[0].Ledger, problems(vs))
		}
	})

	t.Run("BlobEditedAfterAttestation", func(t *testing.T) {
		// The note follows an amend (notes.rewriteRef); the blob does not.
		clone := filepath.Join(t.TempDir(), "amend")
		gitIn(t, filepath.Dir(clone), "clone", "-q", dir, clone)
		gitIn(t, clone, "fetch", "-q", "origin", "refs/notes/clumsies-attest:refs/notes/clumsies-attest")
		gitIn(t, clone, "config", "notes.rewriteRef", "refs/notes/clumsies-attest")
		retry := filepath.Join(clone, "api", "retry.go")
		writeFile(t, retry, string(mustRead(t, retry))+"// edited after attestation\n")
		gitIn(t, clone, "commit", "-q", "-a", "--amend", "--no-edit")
		code, vs := verifyJSON(t, clone, "HEAD", "--key", k.pub)
		if p := problems(vs); code != 1 || !strings.Contains(p, "api/retry.go: the attestation names blob") ||
			!strings.Contains(p, "changed after it was attested") || !strings.Contains(p, "amended or rebased") {
			t.Fatalf("a blob edited after attestation: exit %d, %q", code, p)
		}
		writeFile(t, filepath.Join(clone, "NOTES.txt"), "by hand\n")
		gitIn(t, clone, "add", "NOTES.txt")
		gitIn(t, clone, "commit", "-q", "-m", "unattested")
		if code, vs := verifyJSON(t, clone, "HEAD", "--key", k.pub); code != 3 || vs[0].Attested || !strings.Contains(problems(vs), "clumsies attest") {
			t.Fatalf("a commit without attestation: exit %d, %+v; want 3 and what to run", code, vs)
		}
	})
}

// TestAttest_Check: check judges a range from the ledger, and in a CI
// clone without the ledger from the commits' signed notes: the session
// that wrote api/retry.go without loading its rule fails the policy (and,
// the workspace asking for block, the gate was off), the range without
// it passes; the Markdown summary has a row per file; --json has the
// same verdicts and an empty findings list per file.
func TestAttest_Check(t *testing.T) {
	dir, api := attestWork(t)
	k := opensslKey(t, t.TempDir(), "attest")
	mustRun(t, dir, "attest", "main..feature", "--key", k.priv)

	r := run(t, dir, "check", "main..feature")
	for _, want := range []string{"fails", "| `api/handler.go` | agent | claude-code claude-sonnet-4-5 `sess-loaded` | `" + api + "` | yes | Do/1 |",
		"| `api/retry.go` | agent |", "| `api/client.go` | mixed |", "| `README.md` | human | - |", "**no**",
		"with rule " + api + " in scope and not loaded", "asks for block"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("check main..feature: missing %q in\n%s", want, r.stdout)
		}
	}
	if r.code != 1 {
		t.Errorf("check main..feature: exit %d, want 1", r.code)
	}
	if r := run(t, dir, "check", "main..feature~1"); r.code != 0 || !strings.Contains(r.stdout, "passes") {
		t.Errorf("check main..feature~1: exit %d\n%s%s; want it to pass", r.code, r.stdout, r.stderr)
	}
	local := checkJSON(t, dir, 1, "main..feature")
	if local.Source != "ledger" || local.Enforce != "block" {
		t.Errorf("check --json: source %q, enforce %q", local.Source, local.Enforce)
	}
	// main moves on: the change is still the branch's, against where it
	// forked.
	gitIn(t, dir, "checkout", "-q", "main")
	writeFile(t, filepath.Join(dir, "NEWS.md"), "# News\n")
	gitIn(t, dir, "add", "NEWS.md")
	gitIn(t, dir, "commit", "-q", "-m", "news")
	gitIn(t, dir, "checkout", "-q", "feature")
	if moved := checkJSON(t, dir, 1, "main..feature"); len(moved.Files) != len(local.Files) || moved.Base != local.Base {
		t.Errorf("check after main moved on: %d files from %s, want the branch's %d from %s", len(moved.Files), moved.Base, len(local.Files), local.Base)
	}

	// A CI checkout: no ledger, the notes fetched.
	ci := filepath.Join(t.TempDir(), "ci")
	gitIn(t, filepath.Dir(ci), "clone", "-q", dir, ci)
	if r := run(t, ci, "check", "origin/main..HEAD"); r.code != 2 || !strings.Contains(r.stderr, "--key PUBFILE") {
		t.Errorf("check without a ledger or a key: exit %d, %q; want 2 and --key suggested", r.code, r.stderr)
	}
	if r := run(t, ci, "check", "origin/main..HEAD", "--key", k.pub); r.code != 1 || !strings.Contains(r.stdout, "no verified attestation") {
		t.Errorf("check before the notes are fetched: exit %d\n%s; want 1, every file unattested", r.code, r.stdout)
	}
	gitIn(t, ci, "fetch", "-q", "origin", "refs/notes/clumsies-attest:refs/notes/clumsies-attest")
	remote := checkJSON(t, ci, 1, "origin/main..HEAD", "--key", k.pub)
	if remote.Source != "attestations" || len(remote.Files) != len(local.Files) {
		t.Fatalf("check in CI: got %+v, want the attestations' verdicts on %d files", remote, len(local.Files))
	}
	for i, f := range remote.Files {
		l := local.Files[i]
		if f.Path != l.Path || f.By != l.By || len(f.Problems) != len(l.Problems) || len(f.Rules) != len(l.Rules) {
			t.Errorf("%s in CI: %s with %d problems, locally %s %s with %d", f.Path, f.By, len(f.Problems), l.Path, l.By, len(l.Problems))
		}
	}
	if code, vs := verifyJSON(t, ci, "origin/main..HEAD", "--key", k.pub); code != 0 || vs[0].Ledger != attest.LedgerUnavailable {
		t.Errorf("verify commit in CI: exit %d, %+v; want ok with the ledger unavailable", code, vs)
	}
	// A clone with a ledger of its own (same workspace id, other events)
	// does not speak for the attestation, nor against it.
	mustRun(t, ci, "publish")
	if code, vs := verifyJSON(t, ci, "origin/main..HEAD", "--key", k.pub); code != 0 || vs[0].Ledger != attest.LedgerOther || !strings.Contains(vs[0].LedgerNote, "another clone") {
		t.Errorf("verify commit in a clone with its own ledger: exit %d, %+v; want ok with the ledger another's", code, vs)
	}

	t.Run("ShellRecipe", func(t *testing.T) {
		// docs/attest.md's recipe, as written there, in a CI checkout.
		ci := filepath.Join(t.TempDir(), "ci")
		gitIn(t, filepath.Dir(ci), "clone", "-q", dir, ci)
		writeFile(t, filepath.Join(ci, ".clumsies", "attest.pub.pem"), string(mustRead(t, k.pub)))
		script := filepath.Join(t.TempDir(), "recipe.sh")
		writeFile(t, script, docBlock(t, filepath.Join("..", "..", "docs", "attest.md"), "### Any CI: a shell recipe"))
		cmd := exec.Command("sh", script)
		cmd.Dir = ci
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, errs, code, err := testbin.Run(cmd)
		if err != nil {
			t.Fatal(err)
		}
		summary := string(mustRead(t, filepath.Join(ci, "clumsies-check.md")))
		if code != 1 || !strings.Contains(out, " ok ") || !strings.Contains(summary, "| `api/retry.go` | agent |") || !strings.Contains(out, summary) {
			t.Fatalf("the recipe: exit %d (want 1: the check fails)\nstdout: %s\nstderr: %s\nsummary: %s", code, out, errs, summary)
		}
	})

	for _, args := range [][]string{
		{"attest", "a", "b", "--key", k.priv},
		{"attest", "HEAD"},
		{"check"},
		{"check", "HEAD"},
		{"check", "nosuch..HEAD"},
		{"verify", "commit"},
		{"verify", "commit", "HEAD"},
		{"verify", "commit", "HEAD", "--key", k.priv},
	} {
		if r := run(t, dir, args...); r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "clumsies") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 saying what to do", args, r.code, r.stdout, r.stderr)
		}
	}
}

// checkJSON runs check --json with the exit status wanted.
func checkJSON(tb testing.TB, dir string, code int, args ...string) attest.Result {
	tb.Helper()
	r := run(tb, dir, append([]string{"check", "--json"}, args...)...)
	var res attest.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != code {
		tb.Fatalf("check --json %v: exit %d (want %d), stdout %q, stderr %q", args, r.code, code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, `"findings":[]`) {
		tb.Errorf("check --json: no empty findings list per file: %s", r.stdout)
	}
	for _, f := range res.Files {
		if f.Path == "api/retry.go" && (f.By != attest.ByAgent || len(f.Problems) != 2) {
			tb.Errorf("api/retry.go: %+v, want agent, the rule not loaded and the gate off", f)
		}
		if f.Path == "api/handler.go" && (len(f.Problems) != 0 || len(f.Rules) != 1 || !f.Rules[0].Loaded || len(f.Rules[0].Referenced) != 1) {
			tb.Errorf("api/handler.go: %+v, want its rule loaded and referenced, no problem", f)
		}
	}
	return res
}

// docBlock returns the first fenced code block after the line heading in
// the markdown file doc.
func docBlock(tb testing.TB, doc, heading string) string {
	tb.Helper()
	text := string(mustRead(tb, doc))
	_, after, ok := strings.Cut(text, "\n"+heading+"\n")
	if !ok {
		tb.Fatalf("%s has no %q", doc, heading)
	}
	_, after, ok = strings.Cut(after, "```sh\n")
	block, _, closed := strings.Cut(after, "\n```")
	if !ok || !closed {
		tb.Fatalf("%s: no code block after %q", doc, heading)
	}
	return block + "\n"
}

// TestAttest_Help: attest, verify commit and check print their flags as
// every command does: typed --name, with --workspace and --json.
func TestAttest_Help(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"attest", "-h"}, {"verify", "commit", "-h"}, {"check", "--help"}} {
		r := run(t, dir, args...)
		if r.code != 0 || !strings.Contains(r.stderr, "--workspace DIR") || !strings.Contains(r.stderr, "--json") || !strings.Contains(r.stderr, "--key") {
			t.Errorf("%v: exit %d, want 0 and --workspace, --json and --key listed:\n%s", args, r.code, r.stderr)
		}
		if m := singleDash.FindString(r.stderr); m != "" {
			t.Errorf("%v prints a flag with one dash (%q)", args, m)
		}
	}
	if help := mustRun(t, dir, "help"); !strings.Contains(help, "attest") || !strings.Contains(help, "verify commit") || !strings.Contains(help, "check BASE..HEAD") {
		t.Errorf("help does not list attest, verify commit and check:\n%s", help)
	}
}
