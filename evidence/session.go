package evidence

// Session is what the host's hooks saw a session do, held against what
// its agent loaded and claimed.
type Session struct {
	ID string `json:"id"`
	// Host is the first host the session's hooks named; empty when no
	// hook named one.
	Host string `json:"host,omitempty"`
	// Model is the first model the session's hooks named; Client the MCP
	// client its first memsetup named (who.go). Empty when none did.
	Model  string `json:"model,omitempty"`
	Client string `json:"client,omitempty"`
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
	// NoHostEvidence is set when the session recorded no file edit and
	// its host never recorded one in the workspace: the host records no
	// evidence, so a claim of a rule with paths is not judged against
	// the files touched ("no evidence on this host").
	NoHostEvidence bool `json:"noHostEvidence"`
	// Gate is what the gates recorded of the session: denials, warnings,
	// tools let run unchecked, ungated in-scope changes, the
	// enforcement's own files gated and changed, stop-gate blocks.
	Gate
	// Checks are what the checks of the rules in scope found in the
	// session, per rule (sorted by id) and constraint.
	Checks []RuleChecks `json:"checks"`
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
	// RuleGate is what the gates recorded of the rule in the session.
	RuleGate
}

// Why an unsupported claim is unsupported.
const (
	WhyNotLoaded = "not loaded"
	WhyNoScope   = "no touched file in scope"
)

// Any reports whether s has anything to show: an edit, a rule or a
// figure of the gates.
func (s Session) Any() bool {
	return s.Edits > 0 || len(s.Rules) > 0 || s.Gate != (Gate{}) || len(s.Checks) > 0
}

// NoEvidenceOnHost is what a session with NoHostEvidence says of its
// claims.
const NoEvidenceOnHost = "no evidence on this host"
