package main_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ita "github.com/in-toto/attestation/go/v1"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"github.com/secure-systems-lab/go-securesystemslib/signerverifier"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/clumsies/clumsies/proof/attest"
)

// attestWork plays the agents' work behind the attestation tests, through
// the real MCP server and Claude Code's hooks, then commits it on a
// branch: session A loads the api rule and writes api/handler.go and
// api/client.go, and references a constraint; session B writes
// api/retry.go without loading the rule. Then by hand: README.md, and a
// change of api/client.go after the agent's. The first commit holds
// handler.go, client.go and README.md, the second retry.go (amended);
// then main moves on and the branch is rebased onto it. The workspace
// asks for block. It returns the folder and the api rule's id.
func attestWork(t *testing.T) (dir, api string) {
	t.Helper()
	dir = newWorkspace(t)
	gitInit(t, dir)
	writeRule(t, dir, "api/HANDLERS.md", "api/**/*.go")
	cfg := filepath.Join(dir, ".clumsies", "config.toml")
	writeFile(t, cfg, string(mustRead(t, cfg))+"\n[enforce]\nmode = \"block\"\n")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "base")
	gitIn(t, dir, "checkout", "-q", "-b", "feature")

	_, cl := serve(t, dir, "--checkpoint-every", "4")
	a := hookSession(t, dir, "sess-loaded", func(id, secret string) { setupWith(t, cl, id, secret) })
	api = ruleID(t, cl, "api/HANDLERS.md")
	load(t, cl, api)
	postToolWrite(t, dir, a, "api/handler.go")
	postToolWrite(t, dir, a, "api/client.go")
	call(t, cl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": api, "constraintId": "Do/1"}}})
	_, cl2 := serve(t, dir)
	b := hookSession(t, dir, "sess-unloaded", func(id, secret string) { setupWith(t, cl2, id, secret) })
	postToolWrite(t, dir, b, "api/retry.go")
	cl2.Close()
	cl.Close() // the owner stops: a checkpoint covers the ledger

	writeFile(t, filepath.Join(dir, "README.md"), "# Shop\n")
	client := filepath.Join(dir, "api", "client.go")
	writeFile(t, client, string(mustRead(t, client))+"// tuned by hand\n")
	gitIn(t, dir, "add", "api/handler.go", "api/client.go", "README.md")
	gitIn(t, dir, "commit", "-q", "-m", "handlers")
	gitIn(t, dir, "add", "api/retry.go")
	gitIn(t, dir, "commit", "-q", "-m", "retry")
	gitIn(t, dir, "commit", "-q", "--amend", "-m", "retry, amended")
	gitIn(t, dir, "checkout", "-q", "main")
	writeFile(t, filepath.Join(dir, "CHANGELOG.md"), "# Changes\n")
	gitIn(t, dir, "add", "CHANGELOG.md")
	gitIn(t, dir, "commit", "-q", "-m", "changelog")
	gitIn(t, dir, "checkout", "-q", "feature")
	gitIn(t, dir, "rebase", "-q", "main")
	return dir, api
}

// attestedCommit is one element of attest --json.
type attestedCommit struct {
	Commit    string
	Note      string
	KeyID     string
	Predicate attest.Predicate
	Envelope  dsse.Envelope
}

// TestAttest_Commits: attest main..feature attributes each file of the
// rebased commits from the ledger (agent, mixed, human; session, host,
// model, rules in scope with their hashes, loaded or not, the constraint
// referenced; the ledger range and its checkpoint), stores the envelopes
// as notes and in a .intoto.jsonl file, and the DSSE library's own
// verifier with the public key as openssl writes it accepts them.
func TestAttest_Commits(t *testing.T) {
	dir, api := attestWork(t)
	keys := t.TempDir()
	k := opensslKey(t, keys, "attest")
	out := filepath.Join(keys, "feature.intoto.jsonl")
	var got []attestedCommit
	if err := json.Unmarshal([]byte(mustRun(t, dir, "attest", "main..feature", "--key", k.priv, "--out", out, "--json")), &got); err != nil {
		t.Fatal(err)
	}
	c1, c2 := gitIn(t, dir, "rev-parse", "feature~1"), gitIn(t, dir, "rev-parse", "feature")
	if len(got) != 2 || got[0].Commit != c1 || got[1].Commit != c2 || got[0].Note != "refs/notes/clumsies-attest" {
		t.Fatalf("attest main..feature: got %d attestations (%+v), want the rebased commits %s and %s with notes", len(got), got, c1, c2)
	}
	files := map[string]attest.File{}
	for _, f := range got[0].Predicate.Files {
		files[f.Path] = f
	}
	h, cli, readme := files["api/handler.go"], files["api/client.go"], files["README.md"]
	if len(files) != 3 || h.By != attest.ByAgent || cli.By != attest.ByMixed || readme.By != attest.ByHuman {
		t.Fatalf("the first commit's files: got %+v, want handler.go agent, client.go mixed, README.md human", got[0].Predicate.Files)
	}
	if h.Blob != gitIn(t, dir, "rev-parse", c1+":api/handler.go") || !h.Complete || len(h.Edits) != 1 || h.Edits[0].Session != "sess-loaded" {
		t.Fatalf("handler.go: got %+v, want the committed blob written by one edit of sess-loaded", h)
	}
	r := h.Edits[0].Rules
	if len(r) != 1 || r[0].ID != api || !r[0].Loaded || r[0].Hash == "" || r[0].LoadedHash != r[0].Hash || r[0].LoadedSeq == 0 || r[0].LoadedSeq > h.Edits[0].Seq {
		t.Fatalf("handler.go's rules in scope: got %+v, want %s loaded before the edit, at the hash in force", r, api)
	}
	if cli.Note == "" || cli.Complete || len(cli.Edits) != 1 {
		t.Fatalf("client.go: got %+v, want the agent's edit named and a note that the committed blob is not the agent's", cli)
	}
	s := got[0].Predicate.Sessions
	if len(s) != 1 || s[0].ID != "sess-loaded" || s[0].Host != "claude-code" || s[0].Model != "claude-sonnet-4-5" ||
		len(s[0].Refs) != 1 || s[0].Refs[0].ConstraintID != "Do/1" {
		t.Fatalf("sessions: got %+v, want sess-loaded on claude-code with its model and its ref of Do/1", s)
	}
	lg := got[0].Predicate.Ledger
	if lg.From == 0 || lg.Through < h.Edits[0].Seq || lg.Checkpoint == nil || lg.Checkpoint.Through < lg.Through {
		t.Fatalf("ledger range: got %+v, want the cited events covered by a checkpoint", lg)
	}
	retry := got[1].Predicate.Files
	if len(retry) != 1 || retry[0].By != attest.ByAgent || retry[0].Edits[0].Session != "sess-unloaded" || retry[0].Edits[0].Rules[0].Loaded {
		t.Fatalf("the second commit: got %+v, want api/retry.go by sess-unloaded with the rule not loaded", retry)
	}
	if note := gitIn(t, dir, "notes", "--ref=clumsies-attest", "show", c2); !strings.Contains(note, `"payloadType":"application/vnd.in-toto+json"`) {
		t.Fatalf("the note of %s: %s", c2, note)
	}

	// An independent verifier: the DSSE library's own, with its own
	// loader of the PEM public key, and in-toto's Statement type.
	sslKey, err := signerverifier.LoadKey(mustRead(t, k.pub))
	if err != nil {
		t.Fatal(err)
	}
	sv, err := signerverifier.NewED25519SignerVerifierFromSSLibKey(sslKey)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := dsse.NewEnvelopeVerifier(sv)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(mustRead(t, out))), "\n")
	if len(lines) != 2 {
		t.Fatalf("%s: got %d lines, want one envelope per commit", out, len(lines))
	}
	for i, line := range lines {
		var env dsse.Envelope
		if err := json.Unmarshal([]byte(line), &env); err != nil {
			t.Fatal(err)
		}
		_, body, err := ev.VerifyAndDecode(context.Background(), &env)
		if err != nil {
			t.Fatalf("envelope %d: the DSSE library refuses it: %v", i, err)
		}
		var st ita.Statement
		if err := protojson.Unmarshal(body, &st); err != nil || st.Validate() != nil {
			t.Fatalf("envelope %d: not a valid in-toto Statement: %v / %v", i, err, st.Validate())
		}
		if env.PayloadType != "application/vnd.in-toto+json" || st.Type != "https://in-toto.io/Statement/v1" ||
			st.PredicateType != attest.PredicateType || st.Subject[0].Digest["gitCommit"] != got[i].Commit {
			t.Fatalf("envelope %d: payload type %q, statement %q, predicate %q, subject %v", i, env.PayloadType, st.Type, st.PredicateType, st.Subject[0])
		}
		for _, sub := range st.Subject[1:] {
			if want := gitIn(t, dir, "rev-parse", got[i].Commit+":"+sub.Name); sub.Digest["gitBlob"] != want {
				t.Errorf("envelope %d: subject %s has gitBlob %s, the commit holds %s", i, sub.Name, sub.Digest["gitBlob"], want)
			}
		}
	}
	if len(lines) == 2 {
		var st ita.Statement
		var env dsse.Envelope
		_ = json.Unmarshal([]byte(lines[0]), &env)
		body, _ := base64.StdEncoding.DecodeString(env.Payload)
		_ = protojson.Unmarshal(body, &st)
		if len(st.Subject) != 2 || st.Subject[1].Name != "api/handler.go" {
			t.Errorf("the first statement's subjects: got %v, want the commit and api/handler.go (the one file an agent wrote as committed)", st.Subject)
		}
	}
	_ = os.Remove(out)
}
