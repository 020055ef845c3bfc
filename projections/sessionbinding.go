package projections

import (
	"context"
	"slices"

	"github.com/clumsies/clumsies/events"
)

// SessionSecret is the hash of a secret a session was handed, and who
// handed it (events.BoundByHook, events.BoundByMemsetup).
type SessionSecret struct {
	Hash string `json:"hash"`
	By   string `json:"by"`
}

// maxSessionSecrets bounds the secrets a session keeps: a host hands a
// new one at every start and resume; the oldest go first.
const maxSessionSecrets = 16

// SessionBinding is what the ledger says of a session id's binding: the
// secrets it was handed, and whether a memsetup set it up. A session set
// up with no secret is a session set up before sessions were bound: it
// stays unbound.
type SessionBinding struct {
	SetUp   bool            `json:"setUp,omitempty"`
	Secrets []SessionSecret `json:"secrets,omitempty"`
}

// Match returns who handed the secret that secret is, and whether one is.
func (b SessionBinding) Match(secret string) (by string, ok bool) {
	for _, s := range b.Secrets {
		if events.SecretMatches(secret, s.Hash) {
			return s.By, true
		}
	}
	return "", false
}

// setUp folds a successful memsetup.
func (r *sessionRow) setUp(p *events.SetupData) {
	r.Bound = p.Bound
	if p.Client != nil {
		r.Client = p.Client.Name
		if p.Client.Version != "" {
			r.Client += " " + p.Client.Version
		}
	}
	r.addSecret(p.SecretHash, events.BoundByMemsetup)
}

// addSecret keeps the hash of a secret the session was handed.
func (r *sessionRow) addSecret(hash, by string) {
	if hash == "" || slices.ContainsFunc(r.Secrets, func(s SessionSecret) bool { return s.Hash == hash }) {
		return
	}
	r.Secrets = append(r.Secrets, SessionSecret{Hash: hash, By: by})
	if n := len(r.Secrets); n > maxSessionSecrets {
		r.Secrets = slices.Delete(r.Secrets, 0, n-maxSessionSecrets)
	}
}

// SessionBinding returns the binding of session id, as far as the store
// has applied the ledger: its zero value for an id it holds nothing of.
func (s *Store) SessionBinding(_ context.Context, id string) (SessionBinding, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.st.sessions.byID[id]
	if r == nil {
		return SessionBinding{}, nil
	}
	return SessionBinding{SetUp: r.SetUp, Secrets: slices.Clone(r.Secrets)}, nil
}
