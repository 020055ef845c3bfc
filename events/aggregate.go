package events

import (
	"errors"
	"fmt"
)

// Aggregate names a family of events whose writers decide against each
// other: a writer reads the aggregate's state as of its last event,
// decides, and appends only if no event of the aggregate landed since
// (Log.AppendExpecting). Every event of a type in the aggregate counts,
// failed tool calls included, because they share its subjects.
//
//	AggregateDrafts   attest.draft.*   the drafts agents stage with artifact, and their review
//	AggregateCatalog  catalog.*        the published manifest
//
// Evidence events (setup, discover, load, refer, report, reject) belong
// to no aggregate: nothing is decided against them, so they never make a
// decision try again.
type Aggregate string

// The aggregates.
const (
	AggregateDrafts  Aggregate = "drafts"
	AggregateCatalog Aggregate = "catalog"
)

// Aggregate returns the aggregate events of type t belong to, "" for none.
func (t Type) Aggregate() Aggregate { return t.info().aggregate }

// Subjects returns the subject filter that covers the aggregate's events
// in a workspace; the expectation of an append is checked against it.
func (a Aggregate) Subjects(workspaceID string) string {
	switch a {
	case AggregateDrafts:
		return Subject(workspaceID, "attest.draft") + ".>"
	case AggregateCatalog:
		return Subject(workspaceID, "catalog") + ".>"
	}
	return ""
}

// Expectation is the condition of an append that follows a decision: the
// newest event of Aggregate must still be the one with sequence LastSeq
// (0: the aggregate has no event yet).
type Expectation struct {
	Aggregate Aggregate
	LastSeq   uint64
}

// ErrConflict means an append's expectation did not hold: another event of
// the aggregate landed after the state the decision read. Nothing was
// stored. The caller reads again and decides again.
var ErrConflict = errors.New("events: a concurrent change came first")

// ConflictError is the ErrConflict of one append, with the sequence the
// aggregate has reached when it is known (0 otherwise).
type ConflictError struct {
	Aggregate Aggregate
	Expected  uint64
	Actual    uint64
}

func (e *ConflictError) Error() string {
	if e.Actual == 0 {
		return fmt.Sprintf("%s: %s moved past seq %d", ErrConflict, e.Aggregate, e.Expected)
	}
	return fmt.Sprintf("%s: %s is at seq %d, not %d", ErrConflict, e.Aggregate, e.Actual, e.Expected)
}

// Unwrap makes errors.Is(err, ErrConflict) hold.
func (e *ConflictError) Unwrap() error { return ErrConflict }

// CheckExpectation is the check every Log makes before an append on a
// condition: it returns an error wrapping ErrMalformed if ev's type is not
// part of exp.Aggregate.
func CheckExpectation(ev Event, exp Expectation) error {
	if exp.Aggregate == "" || ev.Type.Aggregate() != exp.Aggregate {
		return fmt.Errorf("append %s on a condition on %q: %w: the type is not part of that aggregate", ev.Type, exp.Aggregate, ErrMalformed)
	}
	return nil
}
