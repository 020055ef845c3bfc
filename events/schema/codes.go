package schema

import "github.com/clumsies/clumsies/events"

// errorCodes returns the closed set of codes a failed tool call records in
// the envelope's errorCode (PROTOCOL.md, "Error contract"), read from
// events, which owns it.
func errorCodes() []string {
	var out []string
	for _, c := range events.Codes() {
		out = append(out, string(c))
	}
	return out
}
