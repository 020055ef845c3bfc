package live

import (
	"log/slog"
	"time"
)

// Defaults applied by Handler to zero Options fields.
const (
	DefaultMaxClients   = 64
	DefaultMaxPerClient = 16
	DefaultHeartbeat    = 15 * time.Second
	DefaultWriteTimeout = 30 * time.Second
)

// retryAfter is the Retry-After value, in seconds, sent with a 503 when
// every stream slot is taken.
const retryAfter = "5"

// Options tune Handler. The zero value is ready to use.
type Options struct {
	// MaxClients bounds the number of concurrent streams. A request past
	// the bound gets 503 Service Unavailable with a Retry-After header.
	// Zero means DefaultMaxClients.
	MaxClients int
	// MaxPerClient bounds the streams of one client (one IP address), so
	// that one client cannot take every slot. A request past it gets 503
	// with Retry-After. Zero means DefaultMaxPerClient.
	MaxPerClient int
	// WriteTimeout bounds how long writing one message to a stream may
	// take. A client that stops reading fills the connection's buffers;
	// past WriteTimeout its stream ends (it may resume with Last-Event-ID)
	// and stops holding memory and a slot. Zero means DefaultWriteTimeout.
	WriteTimeout time.Duration
	// Heartbeat is how long a stream may stay silent before the handler
	// writes a ": ping" comment, which keeps proxies from closing an idle
	// connection and lets the handler notice a vanished client. Zero means
	// DefaultHeartbeat.
	Heartbeat time.Duration
	// Logger receives a line for every stream that ends with an error
	// (error), every request refused for want of a slot (warn) and every
	// client that hangs up (debug). Nil discards them.
	Logger *slog.Logger
}

// withDefaults returns o with every zero field set to its default.
func (o Options) withDefaults() Options {
	if o.MaxClients <= 0 {
		o.MaxClients = DefaultMaxClients
	}
	if o.MaxPerClient <= 0 {
		o.MaxPerClient = DefaultMaxPerClient
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = DefaultHeartbeat
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}
