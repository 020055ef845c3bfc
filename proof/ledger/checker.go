package ledger

import (
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/clumsies/clumsies/events"
)

// Problem is where a ledger's stored messages and its checkpoints first
// disagree.
type Problem struct {
	// Seq is the first sequence found wrong: a missing message, one that
	// does not decode, the checkpoint that disagrees with the messages
	// before it, or the first message of a removed tail.
	Seq uint64 `json:"seq"`
	// After is the sequence through which the chain is known good (the
	// last checkpoint that agreed, 0 for none): the change lies in
	// After+1..Seq.
	After  uint64 `json:"after"`
	Reason string `json:"reason"`
}

func (p *Problem) String() string {
	return fmt.Sprintf("seq %d: %s", p.Seq, p.Reason)
}

// ErrBroken means a ledger's chain does not hold: a stored message was
// changed, removed or rolled back after a checkpoint covered it.
var ErrBroken = errors.New("ledger: hash chain broken")

// BrokenError is ErrBroken with the Problem found.
type BrokenError struct{ Problem Problem }

func (e *BrokenError) Error() string { return fmt.Sprintf("%s at %s", ErrBroken, e.Problem.String()) }

// Unwrap makes errors.Is(err, ErrBroken) hold.
func (e *BrokenError) Unwrap() error { return ErrBroken }

// Checker recomputes a ledger's hash chain over its stored messages, fed
// in sequence order, and checks every ledger.checkpoint against it. It
// keeps the first problem; later messages are still hashed.
type Checker struct {
	ws          string
	next        uint64 // the sequence expected next
	digest      events.ChainDigest
	verified    uint64 // through which a checkpoint agreed
	checkpoints int
	signed      int // checkpoints whose signature was checked
	unchecked   int // signed by a node whose key verify does not hold
	verify      Verifier
	problem     *Problem
	want        *mark // a digest known from elsewhere (the read models)
	memory      Memory
	md          events.MessageDigester
	memoryErr   error
	missing     []Span
	changed     []uint64
	// recent holds the digests through the last CheckpointWindow
	// sequences, at seq % CheckpointWindow, for the checkpoints stored
	// after other messages.
	recent []events.ChainDigest
	from   uint64             // the first sequence recent can hold
	first  events.ChainDigest // the digest through from-1
	// history, when set, gives the digests through earlier sequences in
	// place of recent (see Recall).
	history History
	// keepSigned refuses an unsigned checkpoint after a signed one.
	keepSigned bool
}

type mark struct {
	seq    uint64
	digest string
	source string
}

// Verifier checks a checkpoint's signature: sig over msg by node. known
// is false when it holds no key of node; err is non-nil when the
// signature does not verify.
type Verifier func(node string, msg, sig []byte) (known bool, err error)

// Memory is what the read models recorded of a ledger as they applied
// it: the digest of each message (projections.ChainMemory). ok is false
// for a sequence it holds nothing for.
type Memory interface {
	MessageAt(seq uint64) (d events.MessageDigest, ok bool, err error)
}

// Span is a range of sequences, both ends included.
type Span struct {
	From uint64 `json:"from"`
	To   uint64 `json:"to"`
}

func (s Span) String() string {
	if s.From == s.To {
		return fmt.Sprint(s.From)
	}
	return fmt.Sprintf("%d..%d", s.From, s.To)
}

// Remember makes the Checker compare every stored message with the
// digests m recorded: a message whose bytes are not those m applied is
// named exactly, whatever the checkpoints around it say.
func (c *Checker) Remember(m Memory) { c.memory = m }

// Verify makes the Checker check the signatures of the checkpoints with
// v. Without it a signature is not checked.
func (c *Checker) Verify(v Verifier) { c.verify = v }

// NewChecker returns a Checker for the ledger of workspaceID from its
// first message.
func NewChecker(workspaceID string) *Checker {
	return &Checker{ws: workspaceID, next: 1, digest: events.ChainStart(workspaceID), from: 1, first: events.ChainStart(workspaceID)}
}

// ResumeChecker returns a Checker for the messages after seq after, whose
// chain digest is digest.
func ResumeChecker(workspaceID string, after uint64, digest events.ChainDigest) *Checker {
	return &Checker{ws: workspaceID, next: after + 1, digest: digest, verified: after, from: after + 1, first: digest}
}

// Expect asks the Checker to check that the chain through seq is digest,
// as source (for the message) says; if the ledger ends before seq, its
// tail was removed. Finish reports it.
func (c *Checker) Expect(seq uint64, digest, source string) {
	if seq > 0 {
		c.want = &mark{seq, digest, source}
	}
}

// Add hashes the stored message of ev (ev.Seq, ev.Raw) into the chain and
// checks it: it must follow the previous one, belong to the workspace,
// and, if it is a checkpoint, carry the chain digest of the messages
// before it.
func (c *Checker) Add(ev events.Event) {
	if ev.Seq != c.next {
		if ev.Seq > c.next {
			c.lost(Span{c.next, ev.Seq - 1})
			c.fail(c.next, "missing: the stored messages jump from seq %d to seq %d", c.next-1, ev.Seq)
		} else {
			c.fail(ev.Seq, "out of order: seq %d after seq %d", ev.Seq, c.next-1)
		}
	}
	if ev.WorkspaceID != c.ws {
		c.fail(ev.Seq, "an event of workspace %s in the ledger of %s", ev.WorkspaceID, c.ws)
	}
	if ev.Type == events.TypeCheckpoint {
		c.checkpoint(ev)
	}
	c.digest = c.digest.Next(ev.Seq, ev.Raw)
	c.recall(ev)
	c.next = ev.Seq + 1
	if c.history == nil {
		if c.recent == nil {
			c.recent = make([]events.ChainDigest, events.CheckpointWindow)
		}
		c.recent[ev.Seq%events.CheckpointWindow] = c.digest
	}
	if c.want != nil && c.want.seq == ev.Seq {
		if d := c.digest.String(); d != c.want.digest {
			c.fail(ev.Seq, "the stored messages through seq %d hash to %s, but %s holds %s for them: a message in %d..%d was changed",
				ev.Seq, d, c.want.source, c.want.digest, c.verified+1, ev.Seq)
		}
		c.want = nil
	}
}

// checkpoint checks a ledger.checkpoint against the chain before it.
func (c *Checker) checkpoint(ev events.Event) {
	c.checkpoints++
	p, err := ev.Payload()
	cp, ok := p.(*events.CheckpointData)
	switch {
	case err != nil || !ok:
		c.fail(ev.Seq, "checkpoint does not decode: %v", err)
		return
	case cp.Seq >= ev.Seq || ev.Seq-cp.Seq > events.CheckpointWindow:
		c.fail(ev.Seq, "checkpoint covers seq %d but is stored at seq %d, not within %d messages after it", cp.Seq, ev.Seq, events.CheckpointWindow)
		return
	case cp.Seq+1 < c.from && c.history == nil:
		// It covers messages before those this Checker has seen (an
		// increment that starts after it): nothing to compare with.
		return
	}
	at, ok := c.through(ev.Seq, cp.Seq)
	if !ok {
		return
	}
	if cp.Digest != at.String() {
		c.fail(ev.Seq, "checkpoint says the chain through seq %d is %s, the stored messages hash to %s: a message in %d..%d, or the checkpoint, was changed",
			cp.Seq, cp.Digest, at, c.verified+1, cp.Seq)
		return
	}
	// Only a checkpoint that holds has its signature checked.
	c.signature(ev.Seq, cp)
	if c.problem == nil && cp.Seq > c.verified {
		c.verified = cp.Seq
	}
}

// signature checks the signature of the checkpoint cp stored at seq.
func (c *Checker) signature(seq uint64, cp *events.CheckpointData) {
	if cp.Node == "" && cp.Signature == "" {
		if c.keepSigned && c.signed > 0 {
			c.fail(seq, "checkpoint of seq %d carries no signature after a signed one", cp.Seq)
		}
		return
	}
	sig, err := base64.RawURLEncoding.DecodeString(cp.Signature)
	switch {
	case cp.Node == "" || cp.Signature == "" || err != nil:
		c.fail(seq, "checkpoint of seq %d has a malformed signature (node %q, signature %q)", cp.Seq, cp.Node, cp.Signature)
		return
	case c.verify == nil:
		c.unchecked++
		return
	}
	known, err := c.verify(cp.Node, events.CheckpointMessage(c.ws, cp.Seq, cp.Digest), sig)
	switch {
	case !known:
		c.unchecked++
	case err != nil:
		c.fail(seq, "checkpoint of seq %d is not signed by node %s's key: %v", cp.Seq, cp.Node, err)
	default:
		c.signed++
	}
}

// recall compares the stored message of ev with the digest the Memory
// recorded of it: each message is checked on its own, so a change is
// named at its sequence even after an earlier one broke the chain.
func (c *Checker) recall(ev events.Event) {
	if c.memory == nil {
		return
	}
	want, ok, err := c.memory.MessageAt(ev.Seq)
	if err != nil || !ok {
		c.forget(err)
		return
	}
	if got := c.md.Digest(ev.Seq, ev.Raw); got != want {
		c.changed = append(c.changed, ev.Seq)
		c.fail(ev.Seq, "the stored message of seq %d is not the one the read models applied (they recorded its digest as %s, its bytes now give %s): it was rewritten",
			ev.Seq, want, got)
	}
}

// forget stops the comparison with the Memory when it cannot be read.
func (c *Checker) forget(err error) {
	if err != nil {
		c.memory, c.memoryErr = nil, err
	}
}

// lost records the sequences s missing from the stored messages, merged
// with the span before when they overlap (a tail that both the stream's
// counts and the read models show).
func (c *Checker) lost(s Span) {
	if n := len(c.missing); n > 0 && s.From >= c.missing[n-1].From && s.From <= c.missing[n-1].To+1 {
		c.missing[n-1].To = max(c.missing[n-1].To, s.To)
		return
	}
	c.missing = append(c.missing, s)
}

// Undecodable records the stored message at seq, which does not decode
// (why: reason), as changed, in its place in the sequence: the chain
// cannot go past it, but the messages after it are still compared with
// the Memory.
func (c *Checker) Undecodable(seq uint64, reason string) {
	if seq > c.next {
		c.lost(Span{c.next, seq - 1})
		c.fail(c.next, "missing: the stored messages jump from seq %d to seq %d", c.next-1, seq)
	}
	c.fail(seq, "%s", reason)
	c.changed = append(c.changed, seq)
	c.next = seq + 1
}

// Fail records a problem found outside the Checker, such as a stored
// message at seq that does not decode.
func (c *Checker) Fail(seq uint64, reason string) { c.fail(seq, "%s", reason) }

func (c *Checker) fail(seq uint64, format string, args ...any) {
	if c.problem == nil {
		c.problem = &Problem{Seq: seq, After: c.verified, Reason: fmt.Sprintf(format, args...)}
	}
}

// Finish ends the check: a digest asked for with Expect at a sequence the
// ledger never reached means its tail was removed. It returns the first
// problem, nil if the chain holds.
func (c *Checker) Finish() *Problem {
	if c.want != nil {
		c.lost(Span{c.next, c.want.seq})
		c.fail(c.next, "the stored messages end at seq %d, but %s had seen them through seq %d: the tail %d..%d was removed or an older copy restored",
			c.next-1, c.want.source, c.want.seq, c.next, c.want.seq)
		c.want = nil
	}
	return c.problem
}

// Through returns the sequence of the last message added (the one before
// the first, if none was).
func (c *Checker) Through() uint64 { return c.next - 1 }

// Digest returns the chain digest through Through().
func (c *Checker) Digest() events.ChainDigest { return c.digest }

// Verified returns the sequence through which a checkpoint agreed with
// the stored messages (or the start the Checker resumed from).
func (c *Checker) Verified() uint64 { return c.verified }

// Signed returns how many checkpoints' signatures were checked and hold.
func (c *Checker) Signed() int { return c.signed }

// Unchecked returns how many checkpoints are signed by a node whose key
// the Checker's Verifier does not hold (or with no Verifier).
func (c *Checker) Unchecked() int { return c.unchecked }

// Missing returns the sequences found missing: gaps among the stored
// messages, and a removed tail once Finish or Check has seen it.
func (c *Checker) Missing() []Span { return c.missing }

// Changed returns the sequences whose stored message differs from the one
// the Memory recorded.
func (c *Checker) Changed() []uint64 { return c.changed }

// MemoryErr returns why the Memory could not be read, nil if it could (or
// none was given): the comparison stopped there.
func (c *Checker) MemoryErr() error { return c.memoryErr }

// Checkpoints returns how many checkpoints were added.
func (c *Checker) Checkpoints() int { return c.checkpoints }
