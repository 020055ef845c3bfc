// Package schema owns the JSON Schemas of the ledger: one for the event
// envelope and one per payload, derived from the Go types of package events
// and annotated with our own descriptions; it must not import anything but
// events, the standard library and github.com/google/jsonschema-go.
//
// The schemas are published as files in docs/schema/ for people who write
// analytics consumers in other languages. They are generated, never edited
// by hand: run
//
//	go run ./events/schema/gen
//
// from the module root after changing a payload, and commit the result. A
// test fails while the files and the Go types disagree.
package schema
