package natsjs

import (
	"fmt"
	"math"
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

// blockSizeLimit is the stream's limit of messages per subject, one that
// no ledger reaches (it would discard a subject's oldest events past it,
// and the stream refuses deletes). It is there for nats-server's choice of
// the size of the stream's files: 8 MB blocks for a stream without limits,
// 4 MB for one with a limit per subject, and no other way to set it
// through the JetStream API. The server holds the whole of the last block
// in memory while events are written into it, and reads it in at the
// first append after it starts: with 8 MB blocks, up to 8 MiB more in the
// process that owns a workspace (BENCHMARKS.md, "The stream's files: 8
// MB to 4 MB").
const blockSizeLimit = math.MaxInt64

// StreamConfig is the configuration OpenLayout creates the stream of
// layout l with: the layout's, an append-only stream of files kept
// forever, marked with the schema version. A server that makes the stream
// itself (the hub, replicated) creates or updates it with this
// configuration before it opens the log.
func StreamConfig(l Layout, opts Options) jetstream.StreamConfig {
	c := l.Stream()
	c.Storage, c.Retention, c.Discard = jetstream.FileStorage, jetstream.LimitsPolicy, jetstream.DiscardOld
	c.MaxMsgs, c.MaxBytes, c.MaxAge = -1, -1, 0
	c.MaxMsgsPerSubject = blockSizeLimit
	c.Duplicates = opts.dedupeWindow()
	c.DenyDelete, c.DenyPurge = true, true
	if c.Metadata == nil {
		c.Metadata = map[string]string{}
	}
	c.Metadata[schemaKey] = strconv.Itoa(events.SchemaVersion)
	return c
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
