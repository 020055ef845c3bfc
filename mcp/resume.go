package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
)

// Resumed is a stdio session whose first bytes another process read: the
// small `clumsies` front, which answers initialize before this server has
// started and then execs it (internal/front).
type Resumed struct {
	// Request is the first line (without its line end) if it was answered
	// already, with Answer; both empty when nothing was answered.
	Request, Answer []byte
	// Rest is what was read after Request (all that was read when nothing
	// was answered): the session goes on with it, then with the input.
	Rest []byte
}

// input returns what the session reads: what was read already, then in.
func (r *Resumed) input(in io.Reader) io.Reader {
	var prefix []byte
	if len(r.Answer) > 0 {
		prefix = append(append(prefix, r.Request...), '\n')
	}
	prefix = append(prefix, r.Rest...)
	return io.MultiReader(bytes.NewReader(prefix), in)
}

// method returns the method of the request answered already.
func (r *Resumed) method() string {
	var m struct {
		Method string `json:"method"`
	}
	json.Unmarshal(r.Request, &m)
	return m.Method
}

// sameAnswer reports whether two JSON-RPC answers say the same (the same
// JSON values; the bytes may differ in escapes and spacing).
func sameAnswer(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
