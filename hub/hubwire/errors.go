package hubwire

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// The codes of a failed API request: the closed set the hub answers with.
const (
	CodeInvalid      = "invalid"      // 400: the request's fields are not acceptable
	CodeUnauthorized = "unauthorized" // 401: no token, a wrong one, or a node's signature that does not hold
	CodeForbidden    = "forbidden"    // 403: the token may not do this, or the invite is used or expired
	CodeNotFound     = "not_found"    // 404: no such node, team catalog, object or review
	CodeConflict     = "conflict"     // 409: decided already, or the catalog changed meanwhile
	CodeInternal     = "internal"     // 500: see the hub's log
)

// statuses are the HTTP statuses the hub answers its codes with.
var statuses = map[string]int{
	CodeInvalid:      http.StatusBadRequest,
	CodeUnauthorized: http.StatusUnauthorized,
	CodeForbidden:    http.StatusForbidden,
	CodeNotFound:     http.StatusNotFound,
	CodeConflict:     http.StatusConflict,
	CodeInternal:     http.StatusInternalServerError,
}

// StatusOf returns the HTTP status of a failure with code; 500 for a code
// not in the set.
func StatusOf(code string) int {
	if s, ok := statuses[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// APIError is the body of every failed API request.
type APIError struct {
	Error string `json:"error"`
	Code  string `json:"code"` // one of the Code constants
}

// Error is a request the hub answered with a failure, as the Client
// returns it.
type Error struct {
	// Status is the answer's HTTP status.
	Status int
	// Code is the hub's code (one of the Code constants); "" when the
	// answer was not the hub's (a proxy's, say).
	Code string
	// Message is the hub's message without the "hub: " its errors start
	// with (Error adds it once), or the HTTP status without one.
	Message string
}

func (e *Error) Error() string { return "hub: " + e.Message }

// CodeOf returns the hub's code of the failure err holds; "" when err is
// no answer of the hub.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// ErrUnreachable means the hub did not answer: it could not be reached,
// or its answer could not be read.
var ErrUnreachable = errors.New("hub: no answer")

// ErrBadJoinToken means a join token could not be read.
var ErrBadJoinToken = errors.New("hub: not a join token")

// decodeError reads a failed answer's body.
func decodeError(status int, body []byte) *Error {
	var a APIError
	if json.Unmarshal(body, &a) == nil && a.Error != "" {
		return &Error{Status: status, Code: a.Code, Message: strings.TrimPrefix(a.Error, "hub: ")}
	}
	return &Error{Status: status, Message: fmt.Sprintf("%d %s", status, http.StatusText(status))}
}
