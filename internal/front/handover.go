package front

import (
	"encoding/json"
	"fmt"
	"os"
)

// Env is the environment variable that carries a State from the front to
// the core across exec.
const Env = "CLUMSIES_HANDOVER"

// version is the State layout. A core refuses a State of another layout
// (its front is from another build) instead of guessing.
const version = 1

// MaxRead bounds what the front reads from stdin before it decides, so
// that a State always fits in one environment variable (Linux allows 128
// KiB per string; base64 makes 4/3 of it).
const MaxRead = 64 << 10

// State is a stdio session as the front hands it over.
type State struct {
	V int `json:"v"`
	// Request is the first line the front read (without its line end), if
	// it answered it; Answer is the line it wrote (without its line end).
	// Both are empty when it answered nothing.
	Request []byte `json:"request,omitempty"`
	Answer  []byte `json:"answer,omitempty"`
	// Rest is what the front read from stdin and did not answer: after
	// Request, or all of it when nothing was answered. The core reads it
	// before stdin.
	Rest []byte `json:"rest,omitempty"`
}

// Answered reports whether the front answered the first request.
func (s State) Answered() bool { return len(s.Answer) > 0 }

// Encode returns s as the value of Env.
func (s State) Encode() string {
	s.V = version
	b, _ := json.Marshal(s) // an int and byte slices: it cannot fail
	return string(b)
}

// Take reads the State the front left in the environment and removes it,
// so that no process the core starts inherits it. ok is false when there
// is none (the core was started directly). An unreadable State is an
// error: the session's first bytes are lost with it, and the caller says
// so.
func Take() (s State, ok bool, err error) {
	v, ok := os.LookupEnv(Env)
	if !ok {
		return State{}, false, nil
	}
	os.Unsetenv(Env)
	if err := json.Unmarshal([]byte(v), &s); err != nil {
		return State{}, true, fmt.Errorf("read $%s: %w", Env, err)
	}
	if s.V != version {
		return State{}, true, fmt.Errorf("$%s has layout %d, this build reads %d: clumsies and clumsies-core are from different builds; install both from one (make build, or go install ./cmd/...)", Env, s.V, version)
	}
	if s.Answered() != (len(s.Request) > 0) {
		return State{}, true, fmt.Errorf("$%s: a request without its answer, or an answer without its request", Env)
	}
	return s, true, nil
}
