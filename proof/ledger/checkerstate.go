package ledger

import (
	"fmt"

	"github.com/clumsies/clumsies/events"
)

// A Checker that follows a ledger as it arrives (the hub's copy of each
// node's ledger) is kept between messages as a CheckerState, stored in a
// row, with the digests through earlier sequences in a History (rows
// too) rather than in memory.

// History gives the chain digest through seq of a ledger as a Checker
// computed it before (one row per sequence). ok is false for a sequence
// it holds nothing for.
type History interface {
	DigestAt(seq uint64) (d events.ChainDigest, ok bool, err error)
}

// CheckerState is what a Checker that resumes needs of the one before
// it. Its JSON form is meant to be stored.
type CheckerState struct {
	// Through is the sequence of the last message added, Digest the
	// chain digest through it (empty for none).
	Through     uint64   `json:"through"`
	Digest      string   `json:"digest"`
	Checkpoints int      `json:"checkpoints"`
	Signed      int      `json:"signed"`
	Unchecked   int      `json:"unchecked,omitempty"`
	Verified    uint64   `json:"verified"`
	Problem     *Problem `json:"problem,omitempty"`
}

// State returns what RestoreChecker needs to go on after the last message
// added.
func (c *Checker) State() CheckerState {
	s := CheckerState{Through: c.Through(), Checkpoints: c.checkpoints, Signed: c.signed,
		Unchecked: c.unchecked, Verified: c.verified, Problem: c.problem}
	if s.Through > 0 {
		s.Digest = c.digest.String()
	}
	return s
}

// RestoreChecker returns a Checker for the ledger of workspaceID that
// goes on from s, which State gave. The checkpoints after it are checked
// against h for the sequences before s.Through.
func RestoreChecker(workspaceID string, s CheckerState, h History) (*Checker, error) {
	c := NewChecker(workspaceID)
	c.history = h
	if s.Through > 0 {
		d, err := events.ParseChainDigest(s.Digest)
		if err != nil {
			return nil, fmt.Errorf("restore the checker of %s: %w", workspaceID, err)
		}
		c.next, c.digest, c.from, c.first = s.Through+1, d, s.Through+1, d
	}
	c.checkpoints, c.signed, c.unchecked, c.verified, c.problem = s.Checkpoints, s.Signed, s.Unchecked, s.Verified, s.Problem
	return c, nil
}

// KeepSigned makes the Checker refuse an unsigned checkpoint once one was
// signed: a ledger whose node signs its checkpoints signs them all.
func (c *Checker) KeepSigned() { c.keepSigned = true }

// through returns the chain digest through seq, which the checkpoint
// stored at at covers; ok is false when there is none to compare with
// (the problem, if any, recorded).
func (c *Checker) through(at, seq uint64) (events.ChainDigest, bool) {
	switch {
	case seq+1 == c.next:
		return c.digest, true
	case seq+1 == c.from:
		return c.first, true
	case c.history == nil:
		return c.recent[seq%events.CheckpointWindow], true
	}
	d, ok, err := c.history.DigestAt(seq)
	switch {
	case err != nil:
		c.fail(at, "checkpoint covers seq %d, whose digest cannot be read: %v", seq, err)
	case !ok:
		c.fail(at, "checkpoint covers seq %d, which never reached this copy of the ledger", seq)
	}
	return d, err == nil && ok
}
