package hubwire

import "github.com/clumsies/clumsies/evidence"

// Periods of a stats query's trend.
const (
	PeriodDaily   = "daily"
	PeriodWeekly  = "weekly"
	PeriodMonthly = "monthly"
)

// Totals are the sums of a stats answer.
type Totals struct {
	Events uint64 `json:"events"`
	Refs   uint64 `json:"refs"`
	Loads  uint64 `json:"loads"`
	// Sessions counts the sessions set up (a successful memsetup bound
	// them); SessionsHooksOnly those a host hook saw that never set up
	// (events.SessionKind), as the workspace's stats count them.
	Sessions          uint64 `json:"sessions"`
	SessionsHooksOnly uint64 `json:"sessionsHooksOnly"`
	Reports           uint64 `json:"reports"`
	Rejects           uint64 `json:"rejects"`
	Workspaces        int    `json:"workspaces"`
	Nodes             int    `json:"nodes"`
	Members           int    `json:"members"`
	ActiveDays        int    `json:"activeDays"`
}

// RuleStats counts the use of one rule or workflow of one workspace.
type RuleStats struct {
	ID   string `json:"id"`
	Path string `json:"path"` // "" when never published (unlisted)
	// Removed says the workspace no longer publishes the rule: Path is
	// where it was last published.
	Removed     bool              `json:"removed,omitempty"`
	WorkspaceID string            `json:"workspaceId"`
	Team        string            `json:"team"`
	Refs        uint64            `json:"refs"`
	Loads       uint64            `json:"loads"`
	Constraints []ConstraintStats `json:"constraints"`
	// Source is "team" for a rule of the team's catalog at the hub (its
	// Path is the catalog's), absent for a workspace's own.
	Source string `json:"source,omitempty"`
	// Revisions counts a team rule's refs per catalog revision the agents
	// referred to, oldest first.
	Revisions []RevisionStats `json:"revisions,omitempty"`
}

// RevisionStats counts the refs made against one revision of a team rule.
type RevisionStats struct {
	Revision uint64 `json:"revision"`
	Refs     uint64 `json:"refs"`
}

// ConstraintStats counts the refs of one constraint.
type ConstraintStats struct {
	ID   string `json:"id"`
	Refs uint64 `json:"refs"`
}

// TrendPoint sums one period.
type TrendPoint struct {
	Period            string `json:"period"` // the period's first day, YYYY-MM-DD
	Events            uint64 `json:"events"`
	Refs              uint64 `json:"refs"`
	Loads             uint64 `json:"loads"`
	Sessions          uint64 `json:"sessions"` // set up
	SessionsHooksOnly uint64 `json:"sessionsHooksOnly"`
	Reports           uint64 `json:"reports"`
}

// MemberStats sums one member's events.
type MemberStats struct {
	Member            string `json:"member"` // "" for nodes joined without a member
	Team              string `json:"team"`
	Events            uint64 `json:"events"`
	Refs              uint64 `json:"refs"`
	Sessions          uint64 `json:"sessions"` // set up
	SessionsHooksOnly uint64 `json:"sessionsHooksOnly"`
	Reports           uint64 `json:"reports"`
	ActiveDays        int    `json:"activeDays"`
	// Evidence sums the evidence of the member's sessions.
	Evidence evidence.Figures `json:"evidence"`
	// Hosts and Models are the hosts (the MCP client where no hook named
	// one) and the models of the member's sessions with evidence, sorted.
	Hosts  []string `json:"hosts,omitempty"`
	Models []string `json:"models,omitempty"`
}

// Breakdown counts sessions by one of their traits: a host, a model.
type Breakdown struct {
	Name     string `json:"name"`
	Sessions int    `json:"sessions"`
}

// Evidence is what the hosts' hooks saw the agents do, held against what
// they loaded and claimed, with the workspace's definitions (package
// evidence): for one workspace it is its `clumsies stats --json`
// evidence. The window holds the sessions last seen in it.
type Evidence struct {
	// Edits counts the file-changing tool uses the hooks recorded.
	Edits uint64 `json:"edits"`
	// Unsupported counts the memref refs claimed without evidence.
	Unsupported uint64 `json:"unsupported"`
	// Gate sums what the gates recorded of the sessions: denials,
	// warnings, tools let run unchecked, ungated in-scope changes, the
	// enforcement's own files gated and changed, stop-gate blocks
	// (evidence.Gate), as the workspaces' `clumsies stats --json` does.
	evidence.Gate
	// Rules are per rule of a workspace, over its sessions.
	Rules []RuleEvidence `json:"rules"`
	// Sessions are per session of a node.
	Sessions []SessionEvidence `json:"sessions"`
	// Checks are what the rules' checks found per rule of a team, over
	// the sessions of every workspace of the team: the sums of the
	// workspaces' `clumsies stats --json` checks (evidence.SumChecks).
	Checks []RuleChecks `json:"checks"`
	// Hosts and Models count Sessions by host (the MCP client where no
	// hook named one) and by model, most first; "unknown" where nothing
	// named one.
	Hosts  []Breakdown `json:"hosts"`
	Models []Breakdown `json:"models"`
}

// RuleEvidence is one rule of one workspace over its sessions.
type RuleEvidence struct {
	Team        string `json:"team"`
	WorkspaceID string `json:"workspaceId"`
	Path        string `json:"path"` // "" when never published
	// Removed says the workspace no longer publishes the rule: Path is
	// where it was last published.
	Removed bool `json:"removed,omitempty"`
	evidence.RuleTotals
}

// RuleChecks is what the checks of one rule found over the sessions of
// every workspace of a team where they ran: sessions with a finding among
// those that had the rule loaded and those that had not (a share with its
// 95% interval from evidence.MinSample sessions on, else a note), per
// constraint and per version of the rule.
type RuleChecks struct {
	Team string `json:"team"`
	// Path is the rule's path in the first of Workspaces that publishes
	// it; "" when none does.
	Path string `json:"path"`
	// Workspaces are the workspaces whose sessions its checks ran in,
	// sorted.
	Workspaces []string `json:"workspaces"`
	evidence.CheckTotals
}

// SessionEvidence is one session of one node.
type SessionEvidence struct {
	Team        string `json:"team"`
	WorkspaceID string `json:"workspaceId"`
	Node        string `json:"node"`
	Member      string `json:"member"`
	evidence.Session
}

// Coverage is how much of the published rules, and of their constraints,
// agents referred to.
type Coverage struct {
	Published uint64  `json:"published"`
	Referred  uint64  `json:"referred"` // published rules with at least one ref
	Ratio     float64 `json:"ratio"`
	Unlisted  uint64  `json:"unlisted"` // referred rule ids that are not published
	// Constraints of the published rules and workflows, and how many of
	// them at least one ref named (a ref to a constraint id the rule no
	// longer has does not count).
	Constraints         uint64  `json:"constraints"`
	ConstraintsReferred uint64  `json:"constraintsReferred"`
	ConstraintRatio     float64 `json:"constraintRatio"`
}

// Stats is the answer to a Query.
type Stats struct {
	Period   string        `json:"period"`
	From     string        `json:"from"`
	To       string        `json:"to"`
	Totals   Totals        `json:"totals"`
	Rules    []RuleStats   `json:"rules"`
	TopRules []RuleStats   `json:"topRules"`
	Trend    []TrendPoint  `json:"trend"`
	Members  []MemberStats `json:"members"`
	Coverage Coverage      `json:"coverage"`
	Evidence Evidence      `json:"evidence"`
	// NeverReferred are published rules and workflows with no ref in the
	// window, at most SummaryItems of them in the order of Rules
	// (Coverage says how many).
	NeverReferred []RuleStats `json:"neverReferred"`
	// More says, for the summary (GET /api/stats), how many items each of
	// its lists left off: the lists are whole in their pages.
	More StatsMore `json:"more"`
	// WorkspaceNames names the workspaces of the answer's teams whose
	// nodes gave a name when they joined (Node.WorkspaceName), by id: a
	// label to show beside the id.
	WorkspaceNames map[string]string `json:"workspaceNames,omitempty"`
	// Applied is the last aggregate sequence the answer includes.
	Applied uint64 `json:"applied"`
	// Refused counts the aggregate's messages the hub refused (forged or
	// malformed), over all time.
	Refused uint64 `json:"refused"`
}

// StatsMore counts the items the stats summary left off of each list
// (it holds the first SummaryItems of each): they are in the list's
// pages, GET /api/stats/rules, /api/stats/members,
// /api/stats/evidence/rules, /api/stats/sessions and /api/stats/checks.
type StatsMore struct {
	Rules         int `json:"rules"`
	Members       int `json:"members"`
	EvidenceRules int `json:"evidenceRules"`
	Checks        int `json:"checks"`
	Sessions      int `json:"sessions"`
}

// Sort keys of the listed items, the order of their lists and what their
// pages' cursors name.

// Key returns the sort key of a rule: team, workspace, path, id.
func (r RuleStats) Key() []string { return []string{r.Team, r.WorkspaceID, r.Path, r.ID} }

// Key returns the sort key of a member: team, member.
func (m MemberStats) Key() []string { return []string{m.Team, m.Member} }

// Key returns the sort key of a rule's evidence: team, workspace, id.
func (r RuleEvidence) Key() []string { return []string{r.Team, r.WorkspaceID, r.ID} }

// Key returns the sort key of a session: team, workspace, node, id.
func (s SessionEvidence) Key() []string { return []string{s.Team, s.WorkspaceID, s.Node, s.ID} }

// Key returns the sort key of a rule's checks: team, id.
func (r RuleChecks) Key() []string { return []string{r.Team, r.ID} }
