package mcp

import (
	"encoding/json"
	"unicode/utf8"
)

// idScanMax is how much of a refused line scanID reads: a line over
// MaxLine or nested deeper than MaxDepth is answered with its id when the
// id stands in the line's first idScanMax bytes.
const idScanMax = 64 << 10

// scanID returns the id of the JSON-RPC message that line begins, as sent,
// for the answer to a line refused whole (over MaxLine, or too deep): the
// value of the member "id" at the top level of the object, when it is a
// number or a string of valid UTF-8 (the last one, if given twice), read
// from the first idScanMax bytes. It returns nil when there is none, or
// the prefix does not hold all of it: the answer's id is then null. line
// need not be valid JSON, nor whole: the scan stops where the prefix does,
// or where it stops being JSON. Nested values are skipped with a count of
// depth, not by recursion, so no nesting makes the scan deeper.
func scanID(line []byte) json.RawMessage {
	b := line[:min(len(line), idScanMax)]
	var id json.RawMessage
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil
	}
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] == '"' {
		end, ok := stringEnd(b, i)
		if !ok {
			return id
		}
		name, err := unquote(b[i:end])
		if err != nil {
			return id
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return id
		}
		i = skipSpace(b, i+1)
		end, ok = valueEnd(b, i)
		if !ok {
			return id
		}
		if name == "id" {
			id = nil // a later id replaces an earlier one, even one not echoed
			if v := b[i:end]; scalarID(v) {
				id = json.RawMessage(v)
			}
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ',' {
			return id
		}
		i = skipSpace(b, i+1)
	}
	return id
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
