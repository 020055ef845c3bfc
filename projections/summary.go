package projections

// Summary counts what the store holds.
type Summary struct {
	Checkpoint uint64 `json:"checkpoint"` // sequence of the last applied event
	Events     uint64 `json:"events"`     // events applied
	Sessions   int    `json:"sessions"`   // sessions set up: a successful memsetup bound them
	// SessionsHooksOnly counts the sessions a host hook saw that no
	// successful memsetup bound (events.SessionHooksOnly).
	SessionsHooksOnly int `json:"sessionsHooksOnly"`
	Objects           int `json:"objects"` // published objects, the meta prompt included
	Drafts            int `json:"drafts"`
}

// Summary returns the counts of the store.
func (s *Store) Summary() Summary {
	s.mu.RLock()
	defer s.mu.RUnlock()
	setUp, hooksOnly := s.st.sessions.kinds()
	return Summary{
		Checkpoint:        s.st.checkpoint,
		Events:            s.st.events,
		Sessions:          setUp,
		SessionsHooksOnly: hooksOnly,
		Objects:           len(s.st.manifest.objects),
		Drafts:            len(s.st.drafts.byID),
	}
}
