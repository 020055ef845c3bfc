package main_test

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestHub_InviteFromFile checks that `hub invite --from` makes one token
// per row of a CSV file, in the rows' order, that each token joins its
// clone with the row's team and member, and that the same rows read from
// stdin print CSV.
func TestHub_InviteFromFile(t *testing.T) {
	hp := newHub(t)
	a, b := newWorkspace(t), newWorkspace(t)
	idA, idB := workspaceID(t, a), workspaceID(t, b)
	file := filepath.Join(t.TempDir(), "invites.csv")
	rows := "workspace,team,member\n# the platform team's repositories\n\n" +
		idA + ",platform,ann\n" + idB + ", web\n" + idA + ",platform,bob\n"
	if err := os.WriteFile(file, []byte(rows), 0o600); err != nil {
		t.Fatal(err)
	}
	var made []struct {
		WorkspaceID, Team, Member, Token string
	}
	if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "invite", "--from", file, "--json")), &made); err != nil {
		t.Fatal(err)
	}
	want := [][3]string{{idA, "platform", "ann"}, {idB, "web", ""}, {idA, "platform", "bob"}}
	if len(made) != len(want) {
		t.Fatalf("%d tokens made, want %d: %+v", len(made), len(want), made)
	}
	seen := map[string]bool{}
	for i, m := range made {
		if got := [3]string{m.WorkspaceID, m.Team, m.Member}; got != want[i] {
			t.Errorf("token %d is for %v, want %v", i, got, want[i])
		}
		if _, err := hubwire.ParseJoinToken(m.Token); err != nil || seen[m.Token] {
			t.Errorf("token %d %q: parse error %v, seen before %v", i, m.Token, err, seen[m.Token])
		}
		seen[m.Token] = true
	}
	// The tokens join: ann's clone of a, and b.
	mustRun(t, a, "hub", "join", made[0].Token)
	mustRun(t, b, "hub", "join", made[1].Token)
	var nodes []hubwire.Node
	if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "nodes", "--json")), &nodes); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, n := range nodes {
		got[n.Workspace] = n.Team + "/" + n.Member
	}
	if got[idA] != "platform/ann" || got[idB] != "web/" || len(nodes) != 2 {
		t.Errorf("nodes after the joins: %v, want %s platform/ann and %s web/", got, idA, idB)
	}
	// From stdin, as CSV with a header.
	r := runStdin(t, hp.dir, []byte(idB+",web,cy\n"), "hub", "invite", "--from", "-")
	if r.code != 0 {
		t.Fatalf("hub invite --from -: exit %d, stderr %q", r.code, r.stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || len(recs) != 2 || strings.Join(recs[0], ",") != "workspace,team,member,token" ||
		recs[1][0] != idB || recs[1][1] != "web" || recs[1][2] != "cy" {
		t.Fatalf("hub invite --from -: stdout %q (%v), want a header and one row for %s,web,cy", r.stdout, err, idB)
	}
	if _, err := hubwire.ParseJoinToken(recs[1][3]); err != nil {
		t.Errorf("the token from stdin: %v", err)
	}
	if !strings.Contains(r.stderr, "clumsies hub join TOKEN") {
		t.Errorf("stderr %q does not say how to use the tokens", r.stderr)
	}
}

// TestHub_InviteFromFileRefusesBadRows checks that one bad row refuses the
// whole file before the hub is asked, naming every bad row's line, and
// that a hub that refuses the first row leaves nothing printed as made.
func TestHub_InviteFromFileRefusesBadRows(t *testing.T) {
	dir := t.TempDir()
	ws := "ws-01j0000000000000000000000a"
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// No hub listens at this address: a row check that came after the
	// first request would fail with the connection instead.
	nohub := []string{"--url", "http://127.0.0.1:1", "--token", "x"}
	for _, c := range []struct {
		name, body string
		want       []string
	}{
		{"bad rows", ws + ",red\nnope,red\n" + ws + ",r ed\n" + ws + ",red,ann,extra\n" + ws + ",red,a/b\n",
			[]string{"4 bad rows, no token made", "line 2: workspace \"nope\" is not a workspace id", "line 3: team \"r ed\"", "line 4: want 2 or 3 fields (workspace,team[,member]), found 4", "line 5: member \"a/b\""}},
		{"empty", "workspace,team\n# none yet\n", []string{"holds no row"}},
		{"broken csv", ws + ",\"red\n", []string{"want CSV rows workspace,team[,member]"}},
		{"one field", ws + "\n", []string{"line 1: want 2 or 3 fields (workspace,team[,member]), found 1"}},
	} {
		p := write(strings.ReplaceAll(c.name, " ", "-")+".csv", c.body)
		r := run(t, dir, append([]string{"hub", "invite", "--from", p}, nohub...)...)
		if r.code == 0 || r.stdout != "" {
			t.Errorf("%s: exit %d, stdout %q; want a failure and nothing printed", c.name, r.code, r.stdout)
		}
		for _, w := range c.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%s: stderr %q does not say %q", c.name, r.stderr, w)
			}
		}
	}
	many := &strings.Builder{}
	for range 12 {
		many.WriteString("nope,red\n")
	}
	r := run(t, dir, append([]string{"hub", "invite", "--from", write("many.csv", many.String())}, nohub...)...)
	if !strings.Contains(r.stderr, "12 bad rows") || !strings.Contains(r.stderr, "and 2 more") || strings.Contains(r.stderr, "line 11") {
		t.Errorf("12 bad rows: stderr %q; want the count, the first 10 lines and 'and 2 more'", r.stderr)
	}
	ok := write("ok.csv", ws+",red\n"+ws+",red\n")
	r = run(t, dir, "hub", "invite", "--from", ok, "--workspace", ws, "--team", "red")
	if r.code == 0 || !strings.Contains(r.stderr, "not both") {
		t.Errorf("--from with --workspace: exit %d, stderr %q; want a refusal", r.code, r.stderr)
	}
	r = run(t, dir, "hub", "invite", "--from", filepath.Join(dir, "missing.csv"))
	if r.code == 0 || !strings.Contains(r.stderr, "read the invites") {
		t.Errorf("a missing file: exit %d, stderr %q", r.code, r.stderr)
	}
	// A hub that refuses the first row: a member token may not invite.
	hp := newHub(t)
	member := strings.TrimSpace(mustRun(t, hp.dir, "hub", "token", "--name", "viewer", "--team", "red"))
	r = run(t, dir, "hub", "invite", "--from", ok, "--url", hp.api, "--token", member)
	if r.code == 0 || r.stdout != "" || !strings.Contains(r.stderr, "0 of 2 tokens made") || !strings.Contains(r.stderr, "line 1") {
		t.Errorf("refused by the hub: exit %d, stdout %q, stderr %q; want nothing printed and '0 of 2 tokens made'", r.code, r.stdout, r.stderr)
	}
}
