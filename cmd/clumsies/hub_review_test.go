package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/mcp"
)

type reviewRow struct {
	ID, DraftID, Status, Reason string
	BaseRevision, Revision      uint64
}

func reviews(tb testing.TB, hp *hubProcess, args ...string) []reviewRow {
	tb.Helper()
	var rs []reviewRow
	out := mustRun(tb, hp.dir, append([]string{"hub", "review", "list", "--json"}, args...)...)
	if err := json.Unmarshal([]byte(out), &rs); err != nil {
		tb.Fatalf("%v: %s", err, out)
	}
	return rs
}

// stage updates team object id with body through artifact.
func stage(tb testing.TB, cl *mcp.Client, id, body string) {
	tb.Helper()
	call(tb, cl, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"update": map[string]any{"id": id, "body": body}}})
}

// loaded returns the body memload serves for id, without its footer.
func loaded(tb testing.TB, cl *mcp.Client, id string) string {
	tb.Helper()
	res := call(tb, cl, "memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: ""}})
	body, _ := res["items"].([]any)[0].(map[string]any)["content"].(string)
	body, _, _ = strings.Cut(body, "\n---\nclumsies:")
	return body
}

func refer(tb testing.TB, cl *mcp.Client, id, constraint string) {
	tb.Helper()
	call(tb, cl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": id, "constraintId": constraint}}})
}

// TestHubReview_EndToEnd: an agent in workspace A changes a team rule; the
// draft is submitted by itself, reviewed and accepted at the hub, and its
// outcome and new body reach A; workspace B, offline during the review,
// serves the new body when it comes back; refs before and after are
// counted against their revisions. Then two drafts on one rule: the second
// accepted is conflicted; a decline reaches its agent with the reason; a
// member without review rights is refused.
func TestHubReview_EndToEnd(t *testing.T) {
	hp := newHub(t)
	tree := writeTree(t, map[string]string{"rules/team/STYLE.md": teamRule})
	id := pushTree(t, hp, tree, "red").Published[0].ID
	a, b := newWorkspace(t), newWorkspace(t)
	hp.join(t, a, "red", "ann")
	hp.join(t, b, "red", "bob")

	// B syncs the catalog once, then goes offline.
	bCmd, bcl := serve(t, b)
	setup(t, bcl, "b-1")
	waitFor(t, "the team rule in B", func() bool { return discItem(t, bcl, "team/STYLE.md") != nil })
	bcl.Close()
	bCmd.Wait()

	_, acl := serve(t, a)
	setup(t, acl, "a-1")
	waitFor(t, "the team rule in A", func() bool { return discItem(t, acl, "team/STYLE.md") != nil })
	refer(t, acl, id, "Errors/1") // against revision 1
	v2 := teamRule + "- and log them once\n"
	stage(t, acl, id, v2)
	if it := discItem(t, acl, "team/STYLE.md"); it["draftStatus"] != "in_review" {
		t.Fatalf("memdisc after the draft: %v, want draftStatus in_review (submitted by itself)", it)
	}

	var rs []reviewRow
	waitFor(t, "the draft in the hub's review queue", func() bool { rs = reviews(t, hp); return len(rs) == 1 })
	if rs[0].DraftID != id || rs[0].BaseRevision != 1 {
		t.Fatalf("review queue: %+v, want the draft of %s on revision 1", rs, id)
	}
	var acc reviewRow
	if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "review", "accept", rs[0].ID, "--json")), &acc); err != nil {
		t.Fatal(err)
	}
	if acc.Status != "applied" || acc.Revision != 2 {
		t.Fatalf("accept: %+v, want applied at revision 2", acc)
	}
	if r := run(t, hp.dir, "hub", "review", "accept", rs[0].ID); r.code == 0 {
		t.Fatalf("a second accept of one review: %+v, want it refused", r)
	}
	took := waitFor(t, "the outcome and the new body in A", func() bool {
		it := discItem(t, acl, "team/STYLE.md")
		return it["draftStatus"] == "applied" && loaded(t, acl, id) == v2
	})
	t.Logf("the accepted draft reached its agent after %s", took)
	refer(t, acl, id, "Errors/3") // against revision 2

	_, bcl = serve(t, b)
	setup(t, bcl, "b-2")
	took = waitFor(t, "the new body in B", func() bool { return loaded(t, bcl, id) == v2 })
	t.Logf("workspace B, offline during the review, served the new body after %s", took)

	// Refs against their revisions at the hub.
	waitFor(t, "the refs in the hub's stats", func() bool {
		var st struct {
			Rules []struct {
				Revisions []struct{ Revision, Refs uint64 }
			}
		}
		json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "stats", "--json", "--team", "red", "--rule", id, "--workspace", workspaceID(t, a))), &st)
		return len(st.Rules) == 1 && fmt.Sprint(st.Rules[0].Revisions) == "[{1 1} {2 1}]"
	})

	// Two drafts on one rule, made on revision 2: the second accepted is
	// conflicted.
	stage(t, acl, id, v2+"- from A\n")
	stage(t, bcl, id, v2+"- from B\n")
	waitFor(t, "both drafts in review", func() bool { rs = reviews(t, hp); return len(rs) == 2 })
	first, second := rs[1], rs[0] // accept in the other order than submitted
	mustRun(t, hp.dir, "hub", "review", "accept", first.ID)
	var conf reviewRow
	json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "review", "accept", second.ID, "--json")), &conf)
	if conf.Status != "conflicted" || !strings.Contains(conf.Reason, "revision 3") {
		t.Fatalf("the second accept: %+v, want conflicted naming revision 3", conf)
	}
	for _, cl := range []*mcp.Client{acl, bcl} {
		waitFor(t, "both outcomes in the workspaces", func() bool {
			s, _ := discItem(t, cl, "team/STYLE.md")["draftStatus"].(string)
			return s == "applied" || s == "conflicted"
		})
	}

	// A decline reaches the agent with its reason; only reviewers decide.
	stage(t, acl, id, v2+"- one more\n")
	waitFor(t, "the third draft in review", func() bool { rs = reviews(t, hp); return len(rs) == 1 })
	member := strings.TrimSpace(mustRun(t, hp.dir, "hub", "token", "--name", "cy", "--team", "red"))
	_, err := hp.client(member).Decline(context.Background(), rs[0].ID, "no")
	wantRefused(t, err, hubwire.CodeForbidden, "a decline by a member without review rights")
	reviewer := strings.TrimSpace(mustRun(t, hp.dir, "hub", "token", "--name", "di", "--team", "red", "--reviewer"))
	if r := run(t, hp.dir, "hub", "review", "decline", rs[0].ID, "--url", hp.api, "--token", reviewer); r.code != 2 {
		t.Fatalf("a decline without a reason: %+v, want exit 2", r)
	}
	mustRun(t, hp.dir, "hub", "review", "decline", rs[0].ID, "--reason", "say why in the rule", "--url", hp.api, "--token", reviewer)
	waitFor(t, "the decline in A", func() bool {
		it := discItem(t, acl, "team/STYLE.md")
		return it["draftStatus"] == "declined" && it["draftReason"] == "say why in the rule"
	})

	// A new file in a team folder is a team draft; elsewhere it stays a
	// repository draft.
	newRule := "# Naming\n\nHow we name things.\n\n## Names\n\n- say what it is\n"
	call(t, acl, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"create": map[string]any{"path": "team/NAMING.md", "body": newRule}}})
	call(t, acl, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"create": map[string]any{"path": "mine/LOCAL.md", "body": newRule}}})
	waitFor(t, "the new team file in review", func() bool { rs = reviews(t, hp); return len(rs) == 1 })
	if local := discItem(t, acl, "mine/LOCAL.md"); local["draftStatus"] != "draft" {
		t.Fatalf("a new file outside the team's folders: %v, want a repository draft", local)
	}
	mustRun(t, hp.dir, "hub", "review", "accept", rs[0].ID)
	waitFor(t, "the new team rule in A", func() bool {
		it := discItem(t, acl, "team/NAMING.md")
		return it != nil && it["source"] == "team"
	})

	// A new team file declined at the hub stays in memdisc under its tmp-
	// id with the reason, and memload of the id answers with it.
	declinedRule := "# Spelling\n\n## British\n\n- colour\n"
	tmp := call(t, acl, "artifact", map[string]any{"resource": "rule", "op": map[string]any{"create": map[string]any{"path": "team/SPELLING.md", "body": declinedRule}}})["id"].(string)
	waitFor(t, "the second new team file in review", func() bool { rs = reviews(t, hp); return len(rs) == 1 })
	mustRun(t, hp.dir, "hub", "review", "decline", rs[0].ID, "--reason", "we write American English", "--url", hp.api, "--token", reviewer)
	waitFor(t, "the declined new team file in A", func() bool {
		it := discItem(t, acl, "team/SPELLING.md")
		return it != nil && it["id"] == tmp && it["draftStatus"] == "declined" && it["draftReason"] == "we write American English"
	})
	res := call(t, acl, "memload", map[string]any{"ids": []string{tmp}, "knownHashes": map[string]any{tmp: ""}})
	if it := res["items"].([]any)[0].(map[string]any); it["content"] != declinedRule || it["draftStatus"] != "declined" || it["draftReason"] != "we write American English" {
		t.Fatalf("memload of the declined new team file: %v, want its content, declined and the reason", it)
	}
}

// TestHubReview_Restarts: the hub restarts while a draft waits for review
// and again after the accept, and the workspace is offline during the
// review: the queue is rebuilt, the outcome reaches the workspace once it
// is back, and the draft ends in exactly one state, recorded once.
func TestHubReview_Restarts(t *testing.T) {
	hp := newHub(t)
	tree := writeTree(t, map[string]string{"rules/team/STYLE.md": teamRule})
	id := pushTree(t, hp, tree, "red").Published[0].ID
	a := newWorkspace(t)
	hp.join(t, a, "red", "ann")
	aCmd, acl := serve(t, a)
	setup(t, acl, "a-1")
	waitFor(t, "the team rule", func() bool { return discItem(t, acl, "team/STYLE.md") != nil })
	v2 := teamRule + "- and log them once\n"
	stage(t, acl, id, v2)
	var rs []reviewRow
	waitFor(t, "the draft in review", func() bool { rs = reviews(t, hp); return len(rs) == 1 })
	acl.Close()
	aCmd.Wait() // the workspace goes offline

	hp.stop()
	hp.start(t)
	waitFor(t, "the queue rebuilt after a restart", func() bool { return len(reviews(t, hp)) == 1 })
	mustRun(t, hp.dir, "hub", "review", "accept", rs[0].ID)
	hp.stop()
	hp.start(t)
	var all []reviewRow
	waitFor(t, "the decision kept across a restart", func() bool { all = reviews(t, hp, "--all"); return len(all) == 1 })
	if all[0].Status != "applied" || len(reviews(t, hp)) != 0 {
		t.Fatalf("after the restarts: %+v, want one review, applied", all)
	}

	_, acl = serve(t, a)
	setup(t, acl, "a-2")
	waitFor(t, "the outcome in the workspace", func() bool {
		return discItem(t, acl, "team/STYLE.md")["draftStatus"] == "applied" && loaded(t, acl, id) == v2
	})
	// Once more: the owner replays the outcomes when it starts; nothing
	// is recorded twice.
	acl.Close()
	_, acl = serve(t, a)
	setup(t, acl, "a-3")
	if s := discItem(t, acl, "team/STYLE.md")["draftStatus"]; s != "applied" {
		t.Fatalf("after another start: %v, want applied", s)
	}
	outcomes := 0
	for _, typ := range []string{"attest.draft.apply", "attest.draft.decline", "attest.draft.conflict", "attest.draft.submit"} {
		out := mustRun(t, a, "events", "--type", typ, "--json")
		n := strings.Count(out, `"type":"`+typ+`"`)
		if typ == "attest.draft.submit" {
			if n != 1 {
				t.Fatalf("%d submit events, want 1", n)
			}
			continue
		}
		outcomes += n
	}
	if outcomes != 1 {
		t.Fatalf("%d outcome events in the workspace's ledger, want exactly 1", outcomes)
	}
}
