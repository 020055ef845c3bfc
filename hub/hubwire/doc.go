// Package hubwire is what the hub and its clients share: the names of the
// hub's streams, buckets and subjects, the request and answer types of its
// HTTP API, its error codes, the join token, the node-key signature of a
// node's requests, and the one Client of the API that the workspace side
// (hublink), the admin commands and the tests use. The hub server (package
// hub) serves these same types, so that a renamed field breaks both ends
// at compile time. Nothing outside hub imports the server but what starts
// one (clumsies hub serve, internal/hubtest, internal/bench).
//
// It may import content, events and catalog (for the types its payloads
// carry) and nkeys; never the hub server or the workspace side.
package hubwire
