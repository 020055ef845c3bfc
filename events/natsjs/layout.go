package natsjs

import (
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/events"
)

// Layout is how a log names its stream and subjects and how it stores an
// event: Open uses a workspace's (WorkspaceLayout), and OpenLayout takes
// another, such as the hub's ledger's.
type Layout interface {
	// Stream returns the configuration the log's stream is created with
	// when it does not exist. Duplicates is set from the Options, and the
	// metadata key clumsies_schema added; an existing stream must have
	// the same subjects.
	Stream() jetstream.StreamConfig
	// Encode returns the bytes ev is stored as, or an error wrapping
	// events.ErrMalformed when ev is not valid or not of this log.
	Encode(ev events.Event) ([]byte, error)
	// DecodeStoredInto decodes stored bytes b into ev (Raw set to b), or
	// returns an error; b may be kept.
	DecodeStoredInto(ev *events.Event, b []byte) error
	// Subject returns the subject ev is stored under.
	Subject(ev events.Event) string
	// AggregateSubjects returns the subject filter of the aggregate of ev
	// that exp names, on whose newest event an append of ev is
	// conditioned; an error wrapping events.ErrMalformed when ev is not
	// part of exp.Aggregate.
	AggregateSubjects(ev events.Event, exp events.Expectation) (string, error)
}

// WorkspaceLayout is the layout of the ledger of workspace id: stream
// CLUMSIES_<id> (StreamName), subjects clumsies.<id>.<type>, the events
// as events.Encode writes them.
func WorkspaceLayout(id string) Layout { return workspaceLayout(id) }

type workspaceLayout string

func (w workspaceLayout) Stream() jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:        StreamName(string(w)),
		Description: "clumsies event ledger of workspace " + string(w),
		Subjects:    []string{events.StreamSubjects(string(w))},
	}
}

func (w workspaceLayout) Encode(ev events.Event) ([]byte, error) {
	b, err := events.Encode(ev)
	if err != nil {
		return nil, fmt.Errorf("append %s: %w", ev.Type, err)
	}
	if ev.WorkspaceID != string(w) {
		return nil, fmt.Errorf("append %s: %w: event of workspace %s in the log of %s",
			ev.Type, events.ErrMalformed, ev.WorkspaceID, string(w))
	}
	return b, nil
}

func (workspaceLayout) DecodeStoredInto(ev *events.Event, b []byte) error {
	return events.DecodeStoredInto(ev, b)
}

func (workspaceLayout) Subject(ev events.Event) string { return ev.Subject() }

func (w workspaceLayout) AggregateSubjects(ev events.Event, exp events.Expectation) (string, error) {
	if err := events.CheckExpectation(ev, exp); err != nil {
		return "", err
	}
	return exp.Aggregate.Subjects(string(w)), nil
}
