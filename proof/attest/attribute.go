package attest

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/clumsies/clumsies/events"
)

// Change is one file a commit changed: its repository path and its blob
// ids in the base and in the commit ("" where the file does not exist).
type Change struct {
	Path string
	Base string
	Blob string
}

// Target is what is attributed: the commit, the commit its changes are
// taken against, the committer times of both (an agent edit of a changed
// file recorded between them makes a file that does not match "mixed"),
// and the changes.
type Target struct {
	Commit, Base         string
	BaseTime, CommitTime time.Time
	Changes              []Change
}

// Attribute says who wrote each file of t, from the evidence e. A file
// whose committed blob id is the blob an agent's edit of that path
// recorded is the agent's; the edits that led to it are followed back
// through their recorded "before" blob ids to the base's. The blob ids
// survive amending, rebasing and squashing, so the attribution does too;
// where the chain of edits does not reach the base (a rebase onto a base
// whose file differs, a human edit in between, a hook that did not know
// the file before), the file says so.
func Attribute(e *Evidence, t Target) Predicate {
	p := Predicate{WorkspaceID: e.WorkspaceID, Commit: t.Commit, Base: t.Base, Files: []File{}, Sessions: []Session{}, Notes: []string{}}
	cited := map[string]map[string]bool{} // session -> rule ids in scope of its cited edits
	var from, through uint64
	cite := func(seq uint64) {
		if from == 0 || seq < from {
			from = seq
		}
		through = max(through, seq)
	}
	for _, c := range sortedChanges(t.Changes) {
		f := e.attributeFile(c, t)
		for _, ed := range f.Edits {
			cite(ed.Seq)
			if cited[ed.Session] == nil {
				cited[ed.Session] = map[string]bool{}
			}
			for _, r := range ed.Rules {
				cited[ed.Session][r.ID] = true
				if r.LoadedSeq > 0 {
					cite(r.LoadedSeq)
				}
			}
			for _, g := range ed.Gate {
				cite(g.Seq)
			}
		}
		p.Files = append(p.Files, f)
	}
	for _, sid := range slices.Sorted(maps.Keys(cited)) {
		s := e.sessions[sid]
		s.decode()
		for _, msg := range s.errs {
			p.Notes = append(p.Notes, "session "+sid+": a payload does not decode, its loads or refs are left out ("+msg+")")
		}
		out := Session{ID: sid, Host: s.host, Model: s.model, Bound: s.bound, Refs: []Ref{}}
		if s.startSeq > 0 {
			cite(s.startSeq)
		}
		for _, r := range s.refs {
			if e.inAny(r.ref.RuleID, cited[sid]) {
				out.Refs = append(out.Refs, Ref{Seq: r.seq, RuleID: r.ref.RuleID, RuleHash: r.ref.RuleHash, ConstraintID: r.ref.ConstraintID, TextHash: r.ref.TextHash})
				cite(r.seq)
			}
		}
		p.Sessions = append(p.Sessions, out)
	}
	p.Ledger = LedgerRange{From: from, Through: through, Read: e.Through, ReadID: e.eventID(e.Through)}
	if through > 0 {
		p.Ledger.Checkpoint = e.covering(through)
		if p.Ledger.Checkpoint == nil {
			p.Notes = append(p.Notes, fmt.Sprintf("no ledger.checkpoint covers seq %d yet (the owner writes one every so many events and when it stops): attest again later to name one", through))
		}
	}
	return p
}

// inAny reports whether rule id, or one catalog.reid turned into an id of
// set, is in set.
func (e *Evidence) inAny(id string, set map[string]bool) bool {
	for rid := range set {
		if slices.Contains(e.aliases(rid), id) {
			return true
		}
	}
	return false
}

func sortedChanges(cs []Change) []Change {
	out := slices.Clone(cs)
	slices.SortFunc(out, func(a, b Change) int {
		switch {
		case a.Path < b.Path:
			return -1
		case a.Path > b.Path:
			return 1
		}
		return 0
	})
	return out
}

// attributeFile attributes one changed file.
func (e *Evidence) attributeFile(c Change, t Target) File {
	f := File{Path: c.Path, Blob: c.Blob, Base: c.Base, By: ByHuman, Edits: []Edit{}, Complete: true}
	idx := e.byPath[c.Path]
	last := e.lastWriting(idx, c.Path, c.Blob, ^uint64(0))
	if last < 0 {
		// Agent edits of the file that started from the base's version,
		// that wrote the base's version (the commit changes what an agent
		// wrote), or that were recorded while the change was being made,
		// make it mixed.
		for _, i := range idx {
			ed := &e.edits[i]
			wp := e.workspacePath(ed, c.Path)
			before, known := ed.d.Before[wp]
			after, wrote := ed.d.Hashes[wp]
			if (known && before == c.Base) || (wrote && c.Base != "" && after == c.Base) || within(ed.time, t.BaseTime, t.CommitTime) {
				f.Edits = append(f.Edits, e.editOf(i, c.Path))
			}
		}
		if len(f.Edits) > 0 {
			f.By, f.Complete = ByMixed, false
			f.Note = fmt.Sprintf("agents edited the file (last at seq %d), but the committed blob is none an agent wrote: changed after the agent's edit, by hand or by a route no hook saw", f.Edits[len(f.Edits)-1].Seq)
		}
		return f
	}
	f.By = ByAgent
	// Follow the edits back from the committed blob to the base's.
	chain := []int{last}
	for cur := last; ; {
		ed := &e.edits[cur]
		before, known := ed.d.Before[e.workspacePath(ed, c.Path)]
		if !known {
			f.Complete = false
			f.Note = fmt.Sprintf("the hook did not know the file's content before the edit at seq %d", ed.seq)
			break
		}
		if before == c.Base {
			break
		}
		prev := e.lastWriting(idx, c.Path, before, ed.seq)
		if prev < 0 || slices.Contains(chain, prev) {
			f.Complete = false
			f.Note = fmt.Sprintf("the edit at seq %d started from blob %s, which no recorded edit wrote and the base does not hold (a human edit before it, or a base moved by a rebase)", ed.seq, short(before))
			break
		}
		chain = append(chain, prev)
		cur = prev
	}
	slices.Reverse(chain)
	for _, i := range chain {
		f.Edits = append(f.Edits, e.editOf(i, c.Path))
	}
	return f
}

// lastWriting returns the index of the last edit among idx before seq
// that left the file at path with blob, or -1.
func (e *Evidence) lastWriting(idx []int, path, blob string, before uint64) int {
	for k := len(idx) - 1; k >= 0; k-- {
		ed := &e.edits[idx[k]]
		if ed.seq >= before {
			continue
		}
		if after, ok := ed.d.Hashes[e.workspacePath(ed, path)]; ok && after == blob {
			return idx[k]
		}
	}
	return -1
}

// workspacePath returns the path edit ed recorded for the repository
// path rp.
func (e *Evidence) workspacePath(ed *edit, rp string) string {
	for p, r := range ed.repo {
		if r == rp {
			return p
		}
	}
	return ""
}

// editOf renders edit i as it concerns the file at repository path rp.
func (e *Evidence) editOf(i int, rp string) Edit {
	ed := &e.edits[i]
	wp := e.workspacePath(ed, rp)
	out := Edit{
		Seq: ed.seq, Time: ed.time, Session: ed.sess, Host: ed.d.Host, Tool: ed.d.Tool, ToolUseID: ed.d.ToolUseID,
		Before: ed.d.Before[wp], After: ed.d.Hashes[wp], Unnamed: slices.Contains(ed.d.Unnamed, wp), Candidates: ed.d.Candidates,
		Rules: []RuleState{}, Gate: []GateDecision{},
	}
	for _, id := range ed.d.Rules {
		l := e.lastLoad(ed.sess, id, ed.seq)
		out.Rules = append(out.Rules, RuleState{
			ID: id, Hash: e.ruleHash(id, ed.seq), Loaded: !slices.Contains(ed.d.Unloaded, id),
			LoadedHash: l.hash, LoadedSeq: l.seq,
		})
	}
	// The gate's decisions on the session's tools naming the file since
	// the session's previous edit of it, and on this very call.
	var prev uint64
	for _, j := range e.byPath[rp] {
		if o := &e.edits[j]; o.sess == ed.sess && o.seq < ed.seq {
			prev = o.seq
		}
	}
	if s := e.sessions[ed.sess]; s != nil {
		for _, g := range s.gated {
			sameCall := g.d.ToolUseID != "" && g.d.ToolUseID == ed.d.ToolUseID
			named := g.seq > prev && g.seq < ed.seq && slices.Contains(g.d.Paths, wp)
			if sameCall || named {
				out.Gate = append(out.Gate, GateDecision{Seq: g.seq, Tool: g.d.Tool, Decision: g.d.Decision, Missing: nonNil(g.d.Missing), Unchecked: g.d.Unchecked})
			}
		}
	}
	return out
}

// within reports whether the event time ts lies in [from, to], to the
// second (commit times are whole seconds).
func within(ts string, from, to time.Time) bool {
	t, err := time.Parse(events.TimeLayout, ts)
	if err != nil || from.IsZero() {
		return false
	}
	t = t.Truncate(time.Second)
	return !t.Before(from) && !t.After(to)
}

func short(blob string) string {
	if len(blob) > 12 {
		return blob[:12]
	}
	if blob == "" {
		return "(none)"
	}
	return blob
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
