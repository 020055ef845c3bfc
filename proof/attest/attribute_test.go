package attest_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/proof/attest"
)

const ws = "ws-attest"

// ledger folds evs into evidence, numbering them from seq 1, for a
// workspace at prefix in its repository, each with its stored bytes: a
// checkpoint given without a digest gets the chain's.
func ledger(tb testing.TB, prefix string, evs ...events.Event) *attest.Evidence {
	tb.Helper()
	e := attest.NewEvidence(ws, prefix)
	for _, ev := range stored(tb, evs...) {
		if err := e.Add(ev); err != nil {
			tb.Fatal(err)
		}
	}
	return e
}

// stored numbers evs from seq 1 and gives each its stored bytes, as a
// log reads them; a checkpoint without a digest gets the chain's.
func stored(tb testing.TB, evs ...events.Event) []events.Event {
	tb.Helper()
	chain := []events.ChainDigest{events.ChainStart(ws)}
	out := make([]events.Event, len(evs))
	for i, ev := range evs {
		ev.Seq = uint64(i + 1)
		if ev.Type == events.TypeCheckpoint {
			p, err := ev.Payload()
			if err != nil {
				tb.Fatal(err)
			}
			if cp := p.(*events.CheckpointData); cp.Digest == "" {
				cp.Digest = chain[cp.Seq].String()
				ev.Data, _ = json.Marshal(cp)
			}
		}
		raw, err := events.Encode(ev)
		if err != nil {
			tb.Fatal(err)
		}
		ev.Raw = raw
		chain = append(chain, chain[i].Next(ev.Seq, raw))
		out[i] = ev
	}
	return out
}

// ev is an event of session sid with payload d.
func ev(tb testing.TB, sid string, t events.Type, d any) events.Event {
	tb.Helper()
	e, err := events.New(ws, t, d)
	if err != nil {
		tb.Fatal(err)
	}
	e.SessionID = sid
	return e
}

// write is an attest.file_edit of one path from before to after.
func write(tb testing.TB, sid, path, before, after string, rules, unloaded []string) events.Event {
	tb.Helper()
	return ev(tb, sid, events.TypeFileEdit, events.FileEditData{
		Host: "claude-code", Tool: "Write", Paths: []string{path}, Rules: rules, Unloaded: unloaded,
		Hashes: map[string]string{path: after}, Before: map[string]string{path: before},
	})
}

func file(tb testing.TB, p attest.Predicate, path string) attest.File {
	tb.Helper()
	for _, f := range p.Files {
		if f.Path == path {
			return f
		}
	}
	tb.Fatalf("no file %s in %+v", path, p.Files)
	return attest.File{}
}

func seqs(f attest.File) []uint64 {
	var out []uint64
	for _, e := range f.Edits {
		out = append(out, e.Seq)
	}
	return out
}

func TestAttribute(t *testing.T) {
	const b0, b1, b2, b3, h = "b0", "b1", "b2", "b3", "h1"
	t.Run("SquashedAcrossSessions", func(t *testing.T) {
		e := ledger(t, "", write(t, "a", "x.go", "", b1, nil, nil), write(t, "b", "x.go", b1, b2, nil, nil))
		f := file(t, attest.Attribute(e, attest.Target{Changes: []attest.Change{{Path: "x.go", Blob: b2}}}), "x.go")
		if f.By != attest.ByAgent || !f.Complete || len(f.Edits) != 2 || f.Edits[0].Session != "a" || f.Edits[1].Session != "b" {
			t.Fatalf("got %+v, want both sessions' edits, complete", f)
		}
	})
	t.Run("HumanEditInBetween", func(t *testing.T) {
		e := ledger(t, "", write(t, "a", "x.go", "", b1, nil, nil), write(t, "b", "x.go", h, b3, nil, nil))
		f := file(t, attest.Attribute(e, attest.Target{Changes: []attest.Change{{Path: "x.go", Blob: b3}}}), "x.go")
		if f.By != attest.ByAgent || f.Complete || len(f.Edits) != 1 || !strings.Contains(f.Note, "no recorded edit wrote") {
			t.Fatalf("got %+v, want b's edit, incomplete, the gap named", f)
		}
	})
	t.Run("RebasedOntoAChangedBase", func(t *testing.T) {
		e := ledger(t, "", write(t, "a", "x.go", b0, b1, nil, nil))
		f := file(t, attest.Attribute(e, attest.Target{Changes: []attest.Change{{Path: "x.go", Base: b2, Blob: b1}}}), "x.go")
		if f.By != attest.ByAgent || f.Complete || !strings.Contains(f.Note, "rebase") {
			t.Fatalf("got %+v, want the agent's, the moved base said", f)
		}
	})
	t.Run("MixedAfterTheAgent", func(t *testing.T) {
		e := ledger(t, "", write(t, "a", "x.go", b0, b1, nil, nil), write(t, "a", "y.go", b0, b1, nil, nil))
		p := attest.Attribute(e, attest.Target{Changes: []attest.Change{{Path: "x.go", Base: b0, Blob: h}, {Path: "z.go", Base: b0, Blob: h}}})
		if f := file(t, p, "x.go"); f.By != attest.ByMixed || f.Complete || len(f.Edits) != 1 || f.Note == "" {
			t.Errorf("x.go: got %+v, want mixed with the agent's edit", f)
		}
		if f := file(t, p, "z.go"); f.By != attest.ByHuman || len(f.Edits) != 0 {
			t.Errorf("z.go: got %+v, want human", f)
		}
	})
	t.Run("MixedOnTopOfTheAgent", func(t *testing.T) {
		// A later commit changes by hand the version an agent wrote.
		e := ledger(t, "", write(t, "a", "x.go", "", b1, nil, nil))
		if f := file(t, attest.Attribute(e, attest.Target{Changes: []attest.Change{{Path: "x.go", Base: b1, Blob: h}}}), "x.go"); f.By != attest.ByMixed || len(f.Edits) != 1 {
			t.Errorf("got %+v, want mixed with the agent's edit", f)
		}
	})
	t.Run("MixedInTheCommitWindow", func(t *testing.T) {
		w := write(t, "a", "x.go", b3, b1, nil, nil)
		at, _ := time.Parse(events.TimeLayout, w.Time)
		e := ledger(t, "", w)
		tg := attest.Target{BaseTime: at.Add(-time.Minute), CommitTime: at.Add(time.Minute), Changes: []attest.Change{{Path: "x.go", Base: b0, Blob: h}}}
		if f := file(t, attest.Attribute(e, tg), "x.go"); f.By != attest.ByMixed {
			t.Errorf("an edit between the commits' times: got %+v, want mixed", f)
		}
		tg.BaseTime, tg.CommitTime = at.Add(time.Hour), at.Add(2*time.Hour)
		if f := file(t, attest.Attribute(e, tg), "x.go"); f.By != attest.ByHuman {
			t.Errorf("an edit before the base commit: got %+v, want human", f)
		}
	})
	t.Run("Deleted", func(t *testing.T) {
		e := ledger(t, "", write(t, "a", "x.go", b0, "", nil, nil))
		if f := file(t, attest.Attribute(e, attest.Target{Changes: []attest.Change{{Path: "x.go", Base: b0}}}), "x.go"); f.By != attest.ByAgent || !f.Complete {
			t.Errorf("a deletion: got %+v, want the agent's", f)
		}
	})
	t.Run("WorkspaceInAFolder", func(t *testing.T) {
		wt := write(t, "b", "x.go", "", b2, nil, nil)
		var d events.FileEditData
		p, _ := wt.Payload()
		d = *p.(*events.FileEditData)
		d.Worktree = "wt"
		wt = ev(t, "b", events.TypeFileEdit, d)
		e := ledger(t, "sub/", write(t, "a", "x.go", "", b1, nil, nil), wt)
		p2 := attest.Attribute(e, attest.Target{Changes: []attest.Change{{Path: "sub/x.go", Blob: b1}, {Path: "x.go", Blob: b2}}})
		if f := file(t, p2, "sub/x.go"); f.By != attest.ByAgent || f.Edits[0].Session != "a" {
			t.Errorf("the workspace's sub/x.go: got %+v", f)
		}
		if f := file(t, p2, "x.go"); f.By != attest.ByAgent || f.Edits[0].Session != "b" {
			t.Errorf("a linked worktree's x.go (paths from the worktree's top): got %+v", f)
		}
	})
	t.Run("UnnamedWithCandidates", func(t *testing.T) {
		e := ledger(t, "", ev(t, "a", events.TypeFileEdit, events.FileEditData{Host: "codex", Paths: []string{"x.go"}, Unnamed: []string{"x.go"},
			Candidates: []string{"b"}, Hashes: map[string]string{"x.go": b1}, Before: map[string]string{"x.go": ""}, Via: events.ViaStop}))
		f := file(t, attest.Attribute(e, attest.Target{Changes: []attest.Change{{Path: "x.go", Blob: b1}}}), "x.go")
		if ed := f.Edits[0]; !ed.Unnamed || len(ed.Candidates) != 1 || ed.Candidates[0] != "b" || ed.Tool != "" {
			t.Errorf("a change found at the end of a turn: got %+v, want it unnamed with session b a candidate", ed)
		}
	})
	t.Run("AnUndecodableRef", func(t *testing.T) {
		bad := ev(t, "a", events.TypeRefer, nil)
		bad.Data = json.RawMessage(`{"refs": 5}`)
		e := ledger(t, "", bad, write(t, "a", "x.go", "", b1, nil, nil))
		p := attest.Attribute(e, attest.Target{Changes: []attest.Change{{Path: "x.go", Blob: b1}}})
		if len(p.Notes) != 2 || !strings.Contains(p.Notes[0], "seq 1") || !strings.Contains(p.Notes[0], "does not decode") {
			t.Errorf("a cited session's ref that does not decode: notes %q, want it named", p.Notes)
		}
	})
	t.Run("TheLastWriterOfTheBlob", func(t *testing.T) {
		e := ledger(t, "", write(t, "a", "x.go", "", b1, nil, nil), write(t, "b", "x.go", b1, b2, nil, nil), write(t, "c", "x.go", b2, b1, nil, nil))
		f := file(t, attest.Attribute(e, attest.Target{Changes: []attest.Change{{Path: "x.go", Blob: b1}}}), "x.go")
		if got := seqs(f); len(got) != 3 || got[2] != 3 {
			t.Errorf("a blob written twice: got edits %v, want the chain ending at the last writer, seq 3", got)
		}
	})
}

// TestAttribute_Evidence: the rules in scope of an edit carry the hash
// published at the time, whether the session had loaded them (the hook's
// word) and the version it received, also under an id catalog.reid
// replaced; the gate's decisions on the file come with the edit; refs of
// the rules in scope come with the session; the checkpoint covering the
// range is named, and Upto forgets what came later.
func TestAttribute_Evidence(t *testing.T) {
	old, rule := "p-old", "p-new"
	e := ledger(t, "",
		ev(t, "", events.TypeCatalogPublish, events.PublishData{ID: old, Kind: "rule", Path: "API.md", Hash: "sha256:v1"}),                                                    // 1
		ev(t, "a", events.TypeSessionStart, events.SessionStartData{Host: "codex", Model: "gpt-x"}),                                                                           // 2
		ev(t, "a", events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: old, Hash: "sha256:v1", Changed: true}}}),                                                 // 3
		ev(t, "", events.TypeCatalogPublish, events.PublishData{ID: rule, Kind: "rule", Path: "API.md", Hash: "sha256:v2"}),                                                   // 4
		ev(t, "", events.TypeCatalogReid, events.ReidData{From: old, To: rule, Kind: "rule", Path: "API.md"}),                                                                 // 5
		ev(t, "a", events.TypeToolGated, events.ToolGatedData{Host: "codex", Tool: "Bash", Paths: []string{"x.go"}, Decision: events.GateWarn, Missing: []string{"p-other"}}), // 6
		write(t, "a", "x.go", "", "b1", []string{rule, "p-other"}, []string{"p-other"}),                                                                                       // 7
		ev(t, "a", events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: rule, ConstraintID: "Do/1"}, {RuleID: "p-elsewhere", ConstraintID: "Do/2"}}}),               // 8
		ev(t, "", events.TypeCheckpoint, events.CheckpointData{Seq: 8}),                                                                                                       // 9
		write(t, "a", "y.go", "", "b2", nil, nil), // 10
	)
	p := attest.Attribute(e, attest.Target{Commit: "c", Changes: []attest.Change{{Path: "x.go", Blob: "b1"}}})
	ed := file(t, p, "x.go").Edits[0]
	if len(ed.Rules) != 2 || ed.Rules[0] != (attest.RuleState{ID: rule, Hash: "sha256:v2", Loaded: true, LoadedHash: "sha256:v1", LoadedSeq: 3}) ||
		ed.Rules[1].ID != "p-other" || ed.Rules[1].Loaded || ed.Rules[1].LoadedSeq != 0 {
		t.Fatalf("rules: got %+v", ed.Rules)
	}
	if len(ed.Gate) != 1 || ed.Gate[0].Seq != 6 || ed.Gate[0].Decision != events.GateWarn {
		t.Fatalf("gate: got %+v, want the warning at seq 6", ed.Gate)
	}
	if len(p.Sessions) != 1 || p.Sessions[0].Host != "codex" || p.Sessions[0].Model != "gpt-x" || len(p.Sessions[0].Refs) != 1 || p.Sessions[0].Refs[0].ConstraintID != "Do/1" {
		t.Fatalf("sessions: got %+v, want codex's session with its ref of the rule in scope only", p.Sessions)
	}
	if l := p.Ledger; l.From != 2 || l.Through != 8 || l.Read != 10 || l.Checkpoint == nil || l.Checkpoint.Seq != 9 || len(p.Notes) != 0 {
		t.Fatalf("ledger: got %+v, notes %q; want seq 2..8 read through 10, covered by the checkpoint at 9", l, p.Notes)
	}
	early := attest.Attribute(e.Upto(7), attest.Target{Commit: "c", Changes: []attest.Change{{Path: "x.go", Blob: "b1"}}})
	if early.Ledger.Checkpoint != nil || len(early.Notes) != 1 || len(early.Sessions[0].Refs) != 0 {
		t.Fatalf("up to seq 7: got %+v, notes %q; want no checkpoint yet (said so) and no ref", early.Ledger, early.Notes)
	}
}
