package projections

// Summary counts what the store holds.
type Summary struct {
	Checkpoint uint64 `json:"checkpoint"` // sequence of the last applied event
	Events     uint64 `json:"events"`     // events applied
	Sessions   int    `json:"sessions"`   // sessions that made a successful memsetup
	Objects    int    `json:"objects"`    // published objects, the meta prompt included
	Drafts     int    `json:"drafts"`
}

// Summary returns the counts of the store.
func (s *Store) Summary() Summary {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return Summary{
		Checkpoint: s.st.checkpoint,
		Events:     s.st.events,
		Sessions:   s.st.sessions.setUp(),
		Objects:    len(s.st.manifest.objects),
		Drafts:     len(s.st.drafts.byID),
	}
}
