package events

// KindCounts counts sessions by their kind: the figures "sessions" (set
// up) and "seen by hooks only".
type KindCounts struct {
	SetUp, HooksOnly int
}

// Add counts a session of kind k.
func (c *KindCounts) Add(k SessionKind) {
	switch k {
	case SessionSetUp:
		c.SetUp++
	case SessionHooksOnly:
		c.HooksOnly++
	}
}
