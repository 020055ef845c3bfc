package mcp

import (
	"bytes"
	"encoding/json"
)

// secretNotRecorded stands in the recorded arguments of a failed call for
// the session_secret it passed: the ledger never holds a secret.
const secretNotRecorded = "(not recorded)"

// withoutSecret returns raw with the value of a top-level session_secret
// replaced by secretNotRecorded. Arguments that name session_secret and
// do not parse as an object cannot be cleaned: only their length is kept.
func withoutSecret(raw json.RawMessage) json.RawMessage {
	if !bytes.Contains(raw, []byte(argSessionSecret)) {
		return raw
	}
	var args map[string]json.RawMessage
	if first(raw) != '{' || json.Unmarshal(raw, &args) != nil {
		b, _ := json.Marshal(map[string]any{"unreadable": "arguments that name session_secret and are not a JSON object are not recorded", "bytes": len(raw)})
		return b
	}
	if _, ok := args[argSessionSecret]; !ok {
		return raw
	}
	args[argSessionSecret], _ = json.Marshal(secretNotRecorded)
	b, err := json.Marshal(args)
	if err != nil {
		return nil
	}
	return b
}
