package evidence

// Session is what the host's hooks saw a session do, held against what
// its agent loaded and claimed.
type Session struct {
	ID string `json:"id"`
	// Edits counts the session's attest.file_edit events.
	Edits uint64 `json:"edits"`
	// Paths are the workspace-relative files touched, sorted, at most
	// MaxPaths of them.
	Paths []string `json:"paths"`
	// Rules are the rules in scope, loaded or referenced in the session,
	// sorted by id.
	Rules []Rule `json:"rules"`
	// Unsupported counts the refs claimed without evidence, over Rules.
	Unsupported uint64 `json:"unsupported"`
}

// Rule is one rule in one session.
type Rule struct {
	ID string `json:"id"`
	// InScope counts the session's edits with the rule in scope.
	InScope uint64 `json:"inScope"`
	// UnloadedEdits counts those edits made before the session loaded
	// the rule.
	UnloadedEdits uint64 `json:"unloadedEdits"`
	// Loaded is true once the session loaded the rule (memload).
	Loaded bool `json:"loaded"`
	// Refs counts the session's memref refs of the rule.
	Refs uint64 `json:"refs"`
	// Unsupported counts the refs claimed without evidence: made before
	// the session loaded the rule, or, for a rule with paths, in a session
	// whose edits the hooks recorded and none of which the rule was in
	// scope for.
	Unsupported uint64 `json:"unsupported"`
	// Why says why the refs are unsupported: "not loaded" or "no touched
	// file in scope".
	Why string `json:"why,omitempty"`
}

// Why an unsupported claim is unsupported.
const (
	WhyNotLoaded = "not loaded"
	WhyNoScope   = "no touched file in scope"
)

// Any reports whether s has anything to show: an edit or a rule.
func (s Session) Any() bool { return s.Edits > 0 || len(s.Rules) > 0 }
