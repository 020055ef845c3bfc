// Package eventstest holds the conformance suite that every events.Log
// implementation must pass. It imports only events and the standard library.
package eventstest
