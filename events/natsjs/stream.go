package natsjs

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/clumsies/clumsies/events"
	"github.com/nats-io/nats.go/jetstream"
)

// schemaKey is the stream metadata key that records the event schema
// version the stream was created for.
const schemaKey = "clumsies_schema"

// StreamName returns the name of a workspace's stream: "CLUMSIES_" followed
// by the workspace id. Workspace ids hold no dots, wildcards or spaces, so
// the name is a valid stream name.
func StreamName(workspaceID string) string { return "CLUMSIES_" + workspaceID }

// streamConfig is the configuration Open creates a workspace's stream with.
func streamConfig(workspaceID string, opts Options) jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:        StreamName(workspaceID),
		Description: "clumsies event ledger of workspace " + workspaceID,
		Subjects:    []string{events.StreamSubjects(workspaceID)},
		Storage:     jetstream.FileStorage,
		Retention:   jetstream.LimitsPolicy,
		Discard:     jetstream.DiscardOld,
		MaxMsgs:     -1,
		MaxBytes:    -1,
		MaxAge:      0,
		Duplicates:  opts.dedupeWindow(),
		DenyDelete:  true,
		DenyPurge:   true,
		Metadata:    map[string]string{schemaKey: strconv.Itoa(events.SchemaVersion)},
	}
}

// checkCompatible returns an error wrapping events.ErrIncompatible if an
// existing stream was made for a newer schema, by something other than
// clumsies, or for other subjects than want's.
func checkCompatible(have, want jetstream.StreamConfig) error {
	text, ok := have.Metadata[schemaKey]
	if !ok {
		return fmt.Errorf("%w: stream %s has no %s metadata, so clumsies did not create it; "+
			"remove or rename that stream", events.ErrIncompatible, have.Name, schemaKey)
	}
	v, err := strconv.Atoi(text)
	if err != nil {
		return fmt.Errorf("%w: stream %s has %s %q, not a version number; "+
			"remove or rename that stream", events.ErrIncompatible, have.Name, schemaKey, text)
	}
	if v > events.SchemaVersion {
		return fmt.Errorf("%w: stream %s holds schema version %d, this build writes %d; "+
			"upgrade clumsies", events.ErrIncompatible, have.Name, v, events.SchemaVersion)
	}
	if !slices.Equal(sorted(have.Subjects), sorted(want.Subjects)) {
		return fmt.Errorf("%w: stream %s has subjects %v, want %v; "+
			"restore its subjects or remove the stream", events.ErrIncompatible, have.Name, have.Subjects, want.Subjects)
	}
	return nil
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
