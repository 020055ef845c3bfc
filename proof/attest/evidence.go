package attest

import (
	"fmt"
	"slices"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/proof/ledger"
)

// Evidence is what a workspace's ledger says agents did, indexed for
// attribution: every recorded file edit by the path it names in the
// repository, the sessions, their loads, refs and gate decisions, the
// catalog's rule hashes over time and the checkpoints. Build it with Add,
// one event at a time in ledger order.
type Evidence struct {
	// WorkspaceID is the ledger's workspace.
	WorkspaceID string
	// Through is the sequence of the last event added.
	Through uint64

	prefix      string   // the workspace's folder in the repository ("" or "sub/")
	ids         []string // the event ids by sequence (ids[seq-1])
	edits       []edit
	byPath      map[string][]int // repository path -> indexes into edits, in ledger order
	sessions    map[string]*session
	published   map[string][]hashAt // rule id -> its published hashes, in order
	reidInto    map[string][]string // rule id -> the ids catalog.reid turned into it
	checkpoints []Checkpoint
	// chain recomputes the ledger's hash chain as the events come and
	// checks each checkpoint against it; nil once an event came without
	// its stored bytes (the chain cannot be computed).
	chain *ledger.Checker
}

// edit is one attest.file_edit.
type edit struct {
	seq  uint64
	time string
	sess string
	d    events.FileEditData
	// repo maps each of d.Paths in the workspace to its repository path.
	repo map[string]string
}

type hashAt struct {
	seq  uint64
	hash string
}

// session is what the ledger says of one session id.
type session struct {
	host, model string
	// bound is how the session was bound (events.BoundByHook,
	// events.BoundByMemsetup), "" while nothing bound it.
	bound    string
	startSeq uint64
	loads    map[string][]hashAt // rule id -> the versions delivered to the session
	refs     []refAt
	gated    []gatedAt
	// pending are its attest.load and attest.refer payloads not decoded
	// yet: most sessions are never cited, and these are most of a ledger.
	pending []pendingAt
	// errs name the payloads that did not decode.
	errs []string
}

// pendingAt is an undecoded payload of a session.
type pendingAt struct {
	seq  uint64
	id   string
	typ  events.Type
	data []byte
}

// decode folds the session's pending payloads.
func (s *session) decode() {
	for _, p := range s.pending {
		ev := events.Event{Seq: p.seq, ID: p.id, Type: p.typ, Outcome: events.OutcomeOK, Data: p.data}
		d, err := ev.Payload()
		if err != nil {
			s.errs = append(s.errs, fmt.Sprintf("seq %d: %v", p.seq, err))
			continue
		}
		switch d := d.(type) {
		case *events.LoadData:
			for _, it := range d.Items {
				if it.Delivered() {
					s.loads[it.ID] = append(s.loads[it.ID], hashAt{p.seq, it.Hash})
				}
			}
		case *events.ReferData:
			for _, r := range d.Refs {
				s.refs = append(s.refs, refAt{p.seq, r})
			}
		}
	}
	s.pending = nil
}

type refAt struct {
	seq uint64
	ref events.Ref
}

type gatedAt struct {
	seq uint64
	d   events.ToolGatedData
}

// NewEvidence returns empty evidence for a workspace whose folder is
// prefix in its repository ("" at the repository's top, else a path
// ending in "/", as gitrepo.Repo.Prefix).
func NewEvidence(workspaceID, prefix string) *Evidence {
	return &Evidence{
		WorkspaceID: workspaceID, prefix: prefix,
		byPath: map[string][]int{}, sessions: map[string]*session{},
		published: map[string][]hashAt{}, reidInto: map[string][]string{},
		chain: ledger.NewChecker(workspaceID),
	}
}

// Add folds one event, and its stored bytes (Raw) into the ledger's
// hash chain. Failed tool calls and events this fold does not read are
// skipped; a payload that does not decode is an error naming the event's
// sequence (for loads and refs, decoded once their session is cited, a
// note of the attribution).
func (e *Evidence) Add(ev events.Event) error {
	e.Through = ev.Seq
	if ev.Raw == nil {
		e.chain = nil
	} else if e.chain != nil {
		e.chain.Add(ev)
	}
	for uint64(len(e.ids)) < ev.Seq-1 {
		e.ids = append(e.ids, "") // a sequence the log skipped
	}
	if uint64(len(e.ids)) == ev.Seq-1 {
		e.ids = append(e.ids, ev.ID)
	}
	if ev.Outcome != events.OutcomeOK {
		return nil
	}
	switch ev.Type {
	case events.TypeLoad, events.TypeRefer:
		s := e.session(ev.SessionID)
		s.pending = append(s.pending, pendingAt{ev.Seq, ev.ID, ev.Type, slices.Clone(ev.Data)})
		return nil
	case events.TypeFileEdit, events.TypeCatalogPublish, events.TypeCatalogReid,
		events.TypeSessionStart, events.TypeSetup, events.TypeToolGated, events.TypeCheckpoint:
	default:
		return nil
	}
	p, err := ev.Payload()
	if err != nil {
		return fmt.Errorf("read seq %d: %w", ev.Seq, err)
	}
	switch d := p.(type) {
	case *events.FileEditData:
		e.addEdit(ev, d)
	case *events.PublishData:
		e.published[d.ID] = append(e.published[d.ID], hashAt{ev.Seq, d.Hash})
	case *events.ReidData:
		e.reidInto[d.To] = append(e.reidInto[d.To], d.From)
	case *events.SessionStartData:
		s := e.session(ev.SessionID)
		if s.startSeq == 0 {
			s.host, s.model, s.startSeq = d.Host, d.Model, ev.Seq
		}
		if d.SecretHash != "" && s.bound == "" {
			s.bound = events.BoundByHook
		}
	case *events.SetupData:
		if d.Bound != "" {
			s := e.session(ev.SessionID)
			if s.bound == "" {
				s.bound = d.Bound
			}
		}
	case *events.ToolGatedData:
		s := e.session(ev.SessionID)
		s.gated = append(s.gated, gatedAt{ev.Seq, *d})
	case *events.CheckpointData:
		e.checkpoints = append(e.checkpoints, Checkpoint{Seq: ev.Seq, Through: d.Seq, Digest: d.Digest, Node: d.Node, Signed: d.Signature != ""})
	}
	return nil
}

func (e *Evidence) session(id string) *session {
	s := e.sessions[id]
	if s == nil {
		s = &session{loads: map[string][]hashAt{}}
		e.sessions[id] = s
	}
	return s
}

func (e *Evidence) addEdit(ev events.Event, d *events.FileEditData) {
	ed := edit{seq: ev.Seq, time: ev.Time, sess: ev.SessionID, d: *d, repo: map[string]string{}}
	s := e.session(ev.SessionID)
	if s.host == "" {
		s.host = d.Host
	}
	i := len(e.edits)
	for _, p := range d.Paths {
		if p == events.OutsidePath {
			continue
		}
		// A linked worktree's paths are relative to its top, a folder of
		// the same repository; the workspace's own to the workspace.
		rp := p
		if d.Worktree == "" {
			rp = e.prefix + p
		}
		ed.repo[p] = rp
		e.byPath[rp] = append(e.byPath[rp], i)
	}
	e.edits = append(e.edits, ed)
}

// hashAt returns the published hash of rule id as of sequence seq ("" if
// it was not published then), following catalog.reid back.
func (e *Evidence) ruleHash(id string, seq uint64) string {
	var best hashAt
	for _, rid := range e.aliases(id) {
		for _, h := range e.published[rid] {
			if h.seq <= seq && h.seq >= best.seq {
				best = h
			}
		}
	}
	return best.hash
}

// lastLoad returns the last version of rule id delivered to session sid
// before seq (zero if none), under the id or one reid'd into it.
func (e *Evidence) lastLoad(sid, id string, seq uint64) hashAt {
	var best hashAt
	s := e.sessions[sid]
	if s == nil {
		return best
	}
	s.decode()
	for _, rid := range e.aliases(id) {
		for _, l := range s.loads[rid] {
			if l.seq < seq && l.seq >= best.seq {
				best = l
			}
		}
	}
	return best
}

// aliases returns id and the ids catalog.reid turned into it, at any depth.
func (e *Evidence) aliases(id string) []string {
	out := []string{id}
	for i := 0; i < len(out) && i < 64; i++ {
		for _, from := range e.reidInto[out[i]] {
			if !slices.Contains(out, from) {
				out = append(out, from)
			}
		}
	}
	return out
}

// covering returns the first checkpoint whose chain covers seq, if any.
func (e *Evidence) covering(seq uint64) *Checkpoint {
	for i := range e.checkpoints {
		if e.checkpoints[i].Through >= seq {
			c := e.checkpoints[i]
			return &c
		}
	}
	return nil
}

// checkpointAt returns the checkpoint stored at seq, if there is one.
func (e *Evidence) checkpointAt(seq uint64) *Checkpoint {
	for i := range e.checkpoints {
		if e.checkpoints[i].Seq == seq {
			c := e.checkpoints[i]
			return &c
		}
	}
	return nil
}

// Upto returns the evidence as it stood at sequence seq: later edits,
// refs, gate decisions and checkpoints left out. An attestation records
// the last sequence it read, so that verifying it later is not swayed by
// what the ledger recorded since.
func (e *Evidence) Upto(seq uint64) *Evidence {
	out := NewEvidence(e.WorkspaceID, e.prefix)
	out.Through = min(seq, e.Through)
	out.ids = e.ids[:min(uint64(len(e.ids)), out.Through)]
	out.published, out.reidInto = e.published, e.reidInto // read with a seq bound
	out.chain = e.chain                                   // the whole ledger's proof
	for _, ed := range e.edits {
		if ed.seq > seq {
			break
		}
		i := len(out.edits)
		out.edits = append(out.edits, ed)
		for _, rp := range ed.repo {
			out.byPath[rp] = append(out.byPath[rp], i)
		}
	}
	for id, s := range e.sessions {
		s.decode()
		c := *s
		c.refs = slices.DeleteFunc(slices.Clone(s.refs), func(r refAt) bool { return r.seq > seq })
		c.gated = slices.DeleteFunc(slices.Clone(s.gated), func(g gatedAt) bool { return g.seq > seq })
		if c.startSeq > seq {
			c.host, c.model, c.startSeq = "", "", 0
		}
		out.sessions[id] = &c
	}
	for _, cp := range e.checkpoints {
		if cp.Seq <= seq {
			out.checkpoints = append(out.checkpoints, cp)
		}
	}
	return out
}

// eventID returns the id of the event at seq, "" when the evidence does
// not reach it.
func (e *Evidence) eventID(seq uint64) string {
	if seq == 0 || seq > uint64(len(e.ids)) {
		return ""
	}
	return e.ids[seq-1]
}

// Chain returns what the hash chain of the events added says: the
// sequence through which the checkpoints hold (Verified) and the first
// disagreement (Problem). ok is false when an event came without its
// stored bytes, so that the chain could not be computed.
func (e *Evidence) Chain() (st ledger.CheckerState, ok bool) {
	if e.chain == nil {
		return ledger.CheckerState{}, false
	}
	return e.chain.State(), true
}
