package mcp

import (
	"encoding/json"
	"unicode/utf8"
)

// idScanMax is how much of a refused line scanID reads: a line over
// MaxLine or nested deeper than MaxDepth is answered with its id when the
// id stands in the line's first idScanMax bytes.
const idScanMax = 64 << 10

// scanID returns the id of the JSON-RPC request that line begins, as
// sent, for the answer to a line refused whole (over MaxLine, or too
// deep): the value of the member "id" at the top level of the object, when
// it is a number or a string of valid UTF-8 (the last one, if given
// twice), read from the first idScanMax bytes. It returns nil when there
// is none, when the prefix does not hold all of it, or when the prefix
// shows a response (a top-level "result" or "error", and no "method"): an
// answer carrying a response's id would read as the answer to the
// client's own request. The
// answer's id is then null. line need not be valid JSON, nor whole: the
// scan stops where the prefix does, or where it stops being JSON.
func scanID(line []byte) json.RawMessage {
	var id json.RawMessage
	response, request := false, false
	prefixMembers(line[:min(len(line), idScanMax)], func(name string, v []byte) {
		switch name {
		case "id":
			id = nil // a later id replaces an earlier one, even one not echoed
			if scalarID(v) {
				id = json.RawMessage(v)
			}
		case "result", "error":
			response = true
		case "method":
			request = true
		}
	})
	if response && !request {
		return nil
	}
	return id
}

// prefixMembers calls fn with the name and raw value of each member at
// the top level of the JSON object that b begins, in order, as far as b
// holds whole members and is JSON. Nested values are skipped with a count
// of depth, not by recursion, so no nesting makes the scan deeper.
func prefixMembers(b []byte, fn func(name string, v []byte)) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return
	}
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] == '"' {
		end, ok := stringEnd(b, i)
		if !ok {
			return
		}
		name, err := unquote(b[i:end])
		if err != nil {
			return
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return
		}
		i = skipSpace(b, i+1)
		if end, ok = valueEnd(b, i); !ok {
			return
		}
		fn(name, b[i:end])
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ',' {
			return
		}
		i = skipSpace(b, i+1)
	}
}

// scalarID reports whether v, one whole JSON token, is an id an answer can
// carry: a number, or a string of valid UTF-8.
func scalarID(v []byte) bool {
	if len(v) == 0 || !json.Valid(v) {
		return false
	}
	switch c := v[0]; {
	case c == '"':
		return utf8.Valid(v)
	case c == '-', c >= '0' && c <= '9':
		return true
	}
	return false
}
